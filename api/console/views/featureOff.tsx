import type { GuildRecord } from '../../../db/guild/guilds.js';
import { FEATURE_LABELS, type Feature } from '../../../src/core/features.js';
import { FeatureOff } from './featurePanel.js';
import { Layout, type ServerNav, type Viewer } from './layout.js';

/** An area's page while its feature is off: says so and offers the switch, instead of refusing the manager. */
export function FeatureOffPage(props: { viewer: Viewer; guild: GuildRecord; feature: Feature; active: ServerNav['active']; title: string; then: string }) {
  const { guild } = props;
  return (
    <Layout title={props.title} viewer={props.viewer} server={{ id: guild.id, name: guild.name, active: props.active }}>
      <FeatureOff viewer={props.viewer} guild={guild} feature={props.feature} label={FEATURE_LABELS[props.feature]} then={props.then} />
    </Layout>
  );
}
