import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { FeatureState } from '../../../src/console/serverOverview.js';
import { FormFields } from './formParts.js';
import type { Viewer } from './layout.js';

/** Where a feature's switch posts (api/console/routes/overviewRoutes.ts). */
export const featureSwitchPath = (guildId: string, feature: string) => `/console/servers/${guildId}/overview/features/${feature}`;

/** The form that turns a feature on or off; `then` names the page to come back to (the overview by default). */
export function FeatureSwitch(props: { viewer: Viewer; guild: GuildRecord; feature: string; label: string; on: boolean; then?: string }) {
  const action = featureSwitchPath(props.guild.id, props.feature);
  return (
    <form method="post" action={action} class="inline">
      <FormFields viewer={props.viewer} action={action} />
      <input type="hidden" name="on" value={props.on ? 'false' : 'true'} />
      {props.then && <input type="hidden" name="then" value={props.then} />}
      <button type="submit" class={props.on ? 'danger' : undefined}>
        {props.on ? `Turn ${props.label} off` : `Turn ${props.label} on`}
      </button>
    </form>
  );
}

/**
 * A feature's line on the overview: on or off, its switch, and what it needs of the bot with what it lacks. Every plan
 * includes every feature (spec: plans differ in limits), so every switch is offered.
 */
export function FeatureItem({ viewer, guild, state }: { viewer: Viewer; guild: GuildRecord; state: FeatureState }) {
  const missing = state.needs.filter((n) => n.held === false);
  return (
    <li data-feature={state.feature} data-on={String(state.on)}>
      <strong>{state.label}</strong> <span class={state.on ? undefined : 'muted'}>{state.on ? 'on' : 'off'}</span>{' '}
      <FeatureSwitch viewer={viewer} guild={guild} feature={state.feature} label={state.label} on={state.on} />
      {state.needs.length === 0 ? (
        <p class="help">Needs no permission of the bot.</p>
      ) : (
        <ul class="needs">
          {state.needs.map((n) => (
            <li data-permission={n.label} data-held={n.held === null ? 'unknown' : String(n.held)}>
              {n.held === false ? <span class="error">Missing: </span> : n.held ? 'Has ' : 'Needs '}
              {n.label} <span class="muted">({n.for})</span>
            </li>
          ))}
        </ul>
      )}
      {state.on && missing.length > 0 && (
        <p class="warning" data-missing={state.feature}>
          {state.label} cannot work fully until the bot has {missing.map((m) => m.label).join(', ')}: give its role these permissions in the server's settings.
        </p>
      )}
    </li>
  );
}

/** On a page of a feature that is off: says so and offers to turn it on, then comes back to `then`. */
export function FeatureOff(props: { viewer: Viewer; guild: GuildRecord; feature: string; label: string; then: string }) {
  return (
    <div class="notice warning" data-feature-off={props.feature}>
      <p>
        {props.label} is off in this server: the bot does not use it and the API answers its requests 409. Turn it on to use it (your plan
        includes it).
      </p>
      <FeatureSwitch viewer={props.viewer} guild={props.guild} feature={props.feature} label={props.label} on={false} then={props.then} />
    </div>
  );
}
