import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { LevelsOverview } from '../../../src/console/levelsOverview.js';
import { LEVEL_UP_PLACEHOLDERS, LEVEL_UP_TEMPLATE_MAX } from '../../../src/levels/levelUpMessage.js';
import { LEVEL_FIELDS, type LevelForm } from './levelFields.js';
import { NoXpChannels, RewardRoles, XpRulesForm } from './levelRuleForms.js';
import { DataTable } from './dataTable.js';
import { FeatureOff } from './featurePanel.js';
import { ErrorSummary, FieldMessage, FormFields, invalidAttrs, type FormState } from './formParts.js';
import { Layout, type Viewer } from './layout.js';
import { MemberFinder } from './memberPicker.js';
import { OlderLink } from './olderLink.js';
import { ChannelPicker } from './pickers.js';

const TARGETS = [
  { value: 'channel', label: 'In the announcement channel' },
  { value: 'current', label: 'In the channel where the member wrote' },
  { value: 'dm', label: "In the member's direct messages" },
  { value: 'off', label: 'Not at all' },
] as const;

function SettingsForm(props: { viewer: Viewer; guild: GuildRecord; overview: LevelsOverview; form?: FormState }) {
  const { settings, directory } = props.overview;
  const problem = props.form?.problem;
  const values = props.form?.values;
  const to = values?.get('announceTo') ?? settings.announceTo;
  const action = `/console/servers/${props.guild.id}/levels/settings`;
  return (
    <form method="post" action={action} class="card">
      <h2>Level-up announcements</h2>
      <FormFields viewer={props.viewer} action={action} />
      <fieldset id={LEVEL_FIELDS.announceTo} {...invalidAttrs(problem, LEVEL_FIELDS.announceTo, true)}>
        <legend>Where a member reaching a level is announced</legend>
        <FieldMessage problem={problem} field={LEVEL_FIELDS.announceTo} />
        {TARGETS.map((t) => (
          <label class="check">
            <input type="radio" name="announceTo" value={t.value} checked={to === t.value} /> {t.label}
          </label>
        ))}
      </fieldset>
      <ChannelPicker
        name={LEVEL_FIELDS.channel}
        label="Announcement channel"
        hint="Used when announcing in the announcement channel; kept while another place is chosen."
        directory={directory}
        types={['text', 'announcement']}
        selected={values ? values.get(LEVEL_FIELDS.channel) : settings.announceChannelId}
        none="No channel"
        problem={problem}
      />
      <div>
        <label for={LEVEL_FIELDS.message}>Message</label>
        <span class="muted hint">
          1 to {LEVEL_UP_TEMPLATE_MAX} characters; {LEVEL_UP_PLACEHOLDERS.join(' and ')} are replaced by the member and the level reached.
        </span>
        <FieldMessage problem={problem} field={LEVEL_FIELDS.message} />
        <textarea id={LEVEL_FIELDS.message} name={LEVEL_FIELDS.message} rows={3} cols={50} maxLength={LEVEL_UP_TEMPLATE_MAX} {...invalidAttrs(problem, LEVEL_FIELDS.message)}>
          {values?.get(LEVEL_FIELDS.message) ?? settings.announceTemplate}
        </textarea>
      </div>
      <p>
        <button type="submit">Save the announcement</button>
      </p>
    </form>
  );
}

export function LevelsPage(props: { viewer: Viewer; guild: GuildRecord; overview: LevelsOverview; olderHref: string | null; form?: FormState & { name: LevelForm } }) {
  const { guild, overview } = props;
  // Only the form that came back shows what was sent; the others show the saved settings.
  const formOf = (name: LevelForm) => (props.form?.name === name ? props.form : undefined);
  const { leaderboard, names } = overview;
  const on = guild.features.includes('levels');
  return (
    <Layout title="Levels" viewer={props.viewer} server={{ id: guild.id, name: guild.name, active: 'levels' }} hasErrors={!!props.form?.problem}>
      <ErrorSummary problem={props.form?.problem} />
      {!on && <FeatureOff viewer={props.viewer} guild={guild} feature="levels" label="Levels" then="levels" />}
      <SettingsForm viewer={props.viewer} guild={guild} overview={overview} form={formOf('announcement')} />
      <XpRulesForm viewer={props.viewer} guild={guild} overview={overview} form={formOf('rules')} />
      <NoXpChannels viewer={props.viewer} guild={guild} overview={overview} form={formOf('noXpChannel')} />
      <RewardRoles viewer={props.viewer} guild={guild} overview={overview} form={formOf('reward')} />
      <MemberFinder action={`/console/servers/${guild.id}/levels/members`} title="A member's XP" />
      <h2>Leaderboard</h2>
      <DataTable
        caption={<>Members of {guild.name} by XP ({leaderboard.total} with XP)</>}
        columns={['Rank', 'Member', 'Level', 'XP', 'Messages', 'Voice minutes']}
        rows={leaderboard.items}
        empty={{ name: 'leaderboard', text: 'Nobody has earned XP yet: members earn it by writing and talking while Levels is on. A member\'s name here opens their page, where staff change their XP.' }}
        row={(r) => (
          <tr data-rank={r.rank}>
            <td>{r.rank}</td>
            <td>
              {r.hidden || !r.userId ? (
                <span class="muted">hidden by the member</span>
              ) : (
                <a href={`/console/servers/${guild.id}/levels/members/${r.userId}`}>{names.get(r.userId) ?? r.userId}</a>
              )}
            </td>
            <td>{r.level}</td>
            <td>{r.xp}</td>
            <td>{r.messages}</td>
            <td>{r.voiceMinutes}</td>
          </tr>
        )}
      />
      <OlderLink href={props.olderHref} label="Next members" />
    </Layout>
  );
}
