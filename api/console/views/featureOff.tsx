import type { GuildRecord } from '../../../db/guild/guilds.js';
import { FEATURE_LABELS, featureOffError, type Feature } from '../../../src/core/features.js';
import { FeatureOff, featureSwitchPath } from './featurePanel.js';
import { FormFields } from './formParts.js';
import { hasServerPage, Layout, type ServerNav, type Viewer } from './layout.js';

/** An area's page while its feature is off: says so and offers the switch, instead of refusing the manager. */
export function FeatureOffPage(props: { viewer: Viewer; guild: GuildRecord; feature: Feature; active: ServerNav['active']; title: string; then: string }) {
  const { guild } = props;
  return (
    <Layout title={props.title} viewer={props.viewer} server={{ id: guild.id, name: guild.name, active: props.active }}>
      <FeatureOff viewer={props.viewer} guild={guild} feature={props.feature} label={FEATURE_LABELS[props.feature]} then={props.then} />
    </Layout>
  );
}

/** The confirmation of turning a feature off: its page (GET, `then` in the query) and its action (POST). */
export const featureOffPath = (guildId: string, feature: string) => `${featureSwitchPath(guildId, feature)}/off`;

/**
 * Before a feature is turned off: what stops (its console pages, its API endpoints with the spec's 409, the bot's
 * commands and buttons) and that nothing is deleted; Cancel goes back to the page the switch was on (`then`).
 */
export function ConfirmFeatureOffPage(props: { viewer: Viewer; guild: GuildRecord; feature: Feature; then: string }) {
  const { guild, feature } = props;
  const label = FEATURE_LABELS[feature];
  const action = featureOffPath(guild.id, feature);
  return (
    <Layout title={`Turn ${label} off?`} viewer={props.viewer} server={{ id: guild.id, name: guild.name, active: 'overview' }}>
      {!guild.features.includes(feature) && <p class="notice" data-already-off={feature}>{label} is already off: confirming changes nothing.</p>}
      <h2>What stops</h2>
      <ul data-feature-off-effects={feature}>
        {hasServerPage(feature) && <li>The console's {label} pages say it is off and offer to turn it back on; their actions are refused.</li>}
        <li>
          Its API endpoints answer 409 <code>{featureOffError(feature).code}</code> to every key.
        </li>
        <li>The bot's commands and buttons for {label} answer that it is turned off, and the bot stops doing its work for {label} on its own.</li>
      </ul>
      <p>Nothing is deleted: its settings and records stay, and turning {label} back on brings them back as they were.</p>
      <form method="post" action={action}>
        <FormFields viewer={props.viewer} action={action} />
        <input type="hidden" name="then" value={props.then} />
        <button type="submit" class="danger">
          Turn {label} off
        </button>{' '}
        <a href={`/console/servers/${guild.id}/${props.then}`}>Cancel</a>
      </form>
    </Layout>
  );
}
