import type { GuildRecord } from '../../../db/guild/guilds.js';
import { FEATURE_LABELS, type Feature } from '../../../src/core/features.js';
import { Layout, type ServerNav, type Viewer } from './layout.js';

/** An area's page while its feature is off: says so instead of refusing the manager. */
export function FeatureOffPage(props: { viewer: Viewer; guild: GuildRecord; feature: Feature; active: ServerNav['active']; title: string }) {
  const { guild } = props;
  const label = FEATURE_LABELS[props.feature];
  return (
    <Layout title={props.title} viewer={props.viewer} server={{ id: guild.id, name: guild.name, active: props.active }}>
      <p class="notice warning" data-feature-off={props.feature}>
        The {label} feature is off for {guild.name}: the bot ignores it, the API refuses it (FEATURE_DISABLED), and this page has nothing
        to manage until the feature is turned on. Every plan includes it.
      </p>
    </Layout>
  );
}
