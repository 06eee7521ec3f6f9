import type { z } from 'zod';
import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { LevelMember, XpChangeBody } from '../../../src/levels/contract.js';
import type { MemberSearch } from '../../../src/console/memberSearch.js';
import { ErrorSummary, FieldMessage, FormFields, invalidAttrs, type FormProblem, type FormState } from './formParts.js';
import { Layout, type Viewer } from './layout.js';
import { FoundMembers, MemberFinder } from './memberPicker.js';

/** The XP change form's input ids (the error summary links to them). */
export const XP_FIELDS = { type: 'xp-type', unit: 'xp-unit', amount: 'xp-amount', reason: 'xp-reason' } as const;

const TYPES = [
  { value: 'add', label: 'Add' },
  { value: 'remove', label: 'Remove (you confirm next)' },
  { value: 'set', label: 'Set to (you confirm next)' },
] as const;
const UNITS = [
  { value: 'xp', label: 'XP' },
  { value: 'levels', label: 'Levels (the XP earned inside the current level is kept)' },
] as const;

function Choice(props: { id: string; legend: string; options: ReadonlyArray<{ value: string; label: string }>; checked: string | null; form?: FormState }) {
  return (
    <fieldset id={props.id} {...invalidAttrs(props.form?.problem, props.id, true)}>
      <legend>{props.legend}</legend>
      <FieldMessage problem={props.form?.problem} field={props.id} />
      {props.options.map((o) => (
        <label class="check">
          <input type="radio" name={props.id} value={o.value} checked={props.checked === o.value} /> {o.label}
        </label>
      ))}
    </fieldset>
  );
}

/** A member's level and XP, and the form changing them (the API's XP change). */
export function LevelMemberPage(props: { viewer: Viewer; guild: GuildRecord; member: z.infer<typeof LevelMember>; name: string; form?: FormState }) {
  const { guild, member, form } = props;
  const values = form?.values;
  const action = `/console/servers/${guild.id}/levels/members/${member.userId}/xp-changes`;
  return (
    <Layout title={`${props.name}: levels`} viewer={props.viewer} server={{ id: guild.id, name: guild.name, active: 'levels' }} hasErrors={!!form?.problem}>
      <ErrorSummary problem={form?.problem} />
      <p>
        <a href={`/console/servers/${guild.id}/levels`}>Levels</a>
      </p>
      <h2>{props.name}</h2>
      <dl data-level-member>
        <dt>Level</dt>
        <dd>{member.level}</dd>
        <dt>XP</dt>
        <dd>
          {member.xp} ({member.xpIntoLevel} of {member.xpForNext} to the next level)
        </dd>
        <dt>Rank</dt>
        <dd>{member.rank ?? 'not ranked (no XP)'}</dd>
      </dl>
      <form method="post" action={action} class="card">
        <h2>Change the XP</h2>
        <p class="muted">Applied by the bot within seconds, with the reward roles of the new level; the next page shows its status. A removal or a set asks you first, showing the XP and level it leads to.</p>
        <FormFields viewer={props.viewer} action={action} />
        <Choice id={XP_FIELDS.type} legend="Change" options={TYPES} checked={values?.get(XP_FIELDS.type) ?? 'add'} form={form} />
        <p>
          <label for={XP_FIELDS.amount}>Amount</label>
          <span class="muted hint">0 to 2,000,000,000.</span>
          <FieldMessage problem={form?.problem} field={XP_FIELDS.amount} />
          <input id={XP_FIELDS.amount} name={XP_FIELDS.amount} type="number" inputMode="numeric" min={0} max={2_000_000_000} step={1} required value={values?.get(XP_FIELDS.amount) ?? ''} {...invalidAttrs(form?.problem, XP_FIELDS.amount)} />
        </p>
        <Choice id={XP_FIELDS.unit} legend="Unit" options={UNITS} checked={values?.get(XP_FIELDS.unit) ?? 'xp'} form={form} />
        <p>
          <label for={XP_FIELDS.reason}>Reason (optional)</label>
          <span class="muted hint">Up to 200 characters, shown in the audit log.</span>
          <FieldMessage problem={form?.problem} field={XP_FIELDS.reason} />
          <input id={XP_FIELDS.reason} name={XP_FIELDS.reason} type="text" maxLength={200} value={values?.get(XP_FIELDS.reason) ?? ''} {...invalidAttrs(form?.problem, XP_FIELDS.reason)} />
        </p>
        <p>
          <button type="submit">Change the XP</button>
        </p>
      </form>
    </Layout>
  );
}

const STATUS_TEXT: Record<XpChangeBody['status'], string> = {
  pending: 'Pending: accepted, the bot applies it within seconds. Reload this page to see it applied.',
  processing: 'Processing: the XP is changed; the bot is giving the reward roles of the new level.',
  done: 'Done.',
  failed: 'Failed: nothing was changed.',
};

/** One XP change asked in the console, with its status as GET /levels/xp-changes/{changeId} gives it. */
export function XpChangePage(props: { viewer: Viewer; guild: GuildRecord; change: XpChangeBody; name: string; reason: string | null; askedBy: string | null }) {
  const { guild, change } = props;
  return (
    <Layout title="XP change" viewer={props.viewer} server={{ id: guild.id, name: guild.name, active: 'levels' }}>
      <p>
        <a href={`/console/servers/${guild.id}/levels/members/${change.userId}`}>{props.name}</a>
      </p>
      <h2>
        {change.type === 'set' ? 'Set to' : change.type === 'add' ? 'Add' : 'Remove'} {change.amount} {change.unit === 'xp' ? 'XP' : 'levels'} for {props.name}
      </h2>
      <dl data-xp-change>
        <dt>Reason</dt>
        <dd data-xp-reason>{props.reason ?? 'none given'}</dd>
        {props.askedBy && (
          <>
            <dt>Asked by</dt>
            <dd data-xp-asked-by>{props.askedBy}</dd>
          </>
        )}
      </dl>
      <p data-xp-status={change.status} role="status">
        {STATUS_TEXT[change.status]}
      </p>
      {change.result && (
        <p data-xp-result>
          Level {change.result.previousLevel} → {change.result.level}, {change.result.xp} XP.
        </p>
      )}
      {change.error && <p data-xp-error={change.error}>Why: {change.error === 'MEMBER_NOT_FOUND' ? 'the member left the server' : change.error === 'FEATURE_DISABLED' ? 'Levels was turned off' : change.error}.</p>}
      <p class="muted">Asked {change.createdAt}{change.processedAt && `, applied ${change.processedAt}`}.</p>
    </Layout>
  );
}

/** The members whose name starts as searched, each a link to their XP page (any member, on the leaderboard or not). */
export function LevelSearchPage(props: { viewer: Viewer; guild: GuildRecord; search: MemberSearch; values: URLSearchParams; problem?: FormProblem }) {
  const { guild } = props;
  const members = `/console/servers/${guild.id}/levels/members`;
  return (
    <Layout title="Find a member" viewer={props.viewer} server={{ id: guild.id, name: guild.name, active: 'levels' }} hasErrors={!!props.problem}>
      <ErrorSummary problem={props.problem} />
      <MemberFinder action={members} title="A member's XP" values={props.values} problem={props.problem} />
      <FoundMembers search={props.search} hrefOf={(id) => `${members}/${id}`} empty="level-members" />
    </Layout>
  );
}
