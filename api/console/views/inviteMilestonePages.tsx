import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { InviteMilestone } from '../../../db/invites/milestones.js';
import type { ServerDirectory } from '../../../src/console/serverDirectory.js';
import { MAX_MILESTONE_INVITES } from '../../../src/invites/configureMilestone.js';
import { TextField } from './fields.js';
import { ErrorSummary, FormFields, type FormState } from './formParts.js';
import { invitesNav, invitesPath } from './invitePages.js';
import { Layout, type Viewer } from './layout.js';
import { ListView } from './listView.js';
import { RolePicker } from './pickers.js';

/** The input ids of the milestone form (the error summary links to them). */
export const MILESTONE_FIELDS = { invites: 'milestone-invites', role: 'milestone-role' } as const;

export const milestonesPath = (guildId: string) => invitesPath(guildId, '/milestones');
export const milestonePath = (guildId: string, m: InviteMilestone) => `${milestonesPath(guildId)}/${m.invites}/${m.roleId}`;
const roleName = (directory: ServerDirectory, roleId: string) => {
  const role = directory.roles.find((r) => r.id === roleId);
  return role ? `@${role.name}` : `a deleted role (${roleId})`;
};

/** The milestone's fields: on the add form empty, on the edit form the milestone's own (or, back with an error, as sent). */
function MilestoneForm(props: { viewer: Viewer; action: string; directory: ServerDirectory; milestone?: InviteMilestone; form?: FormState; submit: string }) {
  const values = props.form?.values;
  const problem = props.form?.problem;
  return (
    <form method="post" action={props.action} class="card">
      <FormFields viewer={props.viewer} action={props.action} />
      <TextField
        name={MILESTONE_FIELDS.invites}
        label="Invites"
        hint={`The count a member reaches, a whole number from 1 to ${MAX_MILESTONE_INVITES.toLocaleString('en')}.`}
        value={values?.get(MILESTONE_FIELDS.invites) ?? (props.milestone ? String(props.milestone.invites) : '')}
        maxLength={7}
        required
        problem={problem}
      />
      <RolePicker
        name={MILESTONE_FIELDS.role}
        label="Role given"
        hint="Given once, when a member's invites reach the count; never taken back."
        directory={props.directory}
        selected={values ? values.get(MILESTONE_FIELDS.role) : props.milestone?.roleId}
        problem={problem}
      />
      <p>
        <button type="submit">{props.submit}</button>
      </p>
    </form>
  );
}

export function MilestonesPage(props: { viewer: Viewer; guild: GuildRecord; directory: ServerDirectory; milestones: InviteMilestone[]; olderHref: string | null; form?: FormState }) {
  const { guild, directory } = props;
  return (
    <Layout title="Invite milestone rewards" viewer={props.viewer} server={invitesNav(guild)} hasErrors={!!props.form?.problem}>
      <ErrorSummary problem={props.form?.problem} />
      <p>
        <a href={invitesPath(guild.id)}>Back to the invites leaderboard</a>
      </p>
      <ListView
        caption="Milestones, lowest count first"
        columns={['Invites', 'Role', 'Actions']}
        rows={props.milestones}
        empty={{ name: 'milestones', text: 'No milestone yet. Add one below: a role members get when their invites reach a count.' }}
        row={(m) => (
          <tr data-milestone={`${m.invites}-${m.roleId}`}>
            <td>{m.invites}</td>
            <td>{roleName(directory, m.roleId)}</td>
            <td>
              <a href={`${milestonePath(guild.id, m)}/edit`} aria-label={`Edit the milestone at ${m.invites} invites (${roleName(directory, m.roleId)})`}>
                Edit
              </a>{' '}
              <a href={`${milestonePath(guild.id, m)}/remove`} aria-label={`Remove the milestone at ${m.invites} invites (${roleName(directory, m.roleId)})…`}>
                Remove…
              </a>
            </td>
          </tr>
        )}
        older={{ href: props.olderHref, label: 'More milestones' }}
      />
      <h2>Add a milestone</h2>
      <MilestoneForm viewer={props.viewer} action={milestonesPath(guild.id)} directory={directory} form={props.form} submit="Add the milestone" />
    </Layout>
  );
}

export function EditMilestonePage(props: { viewer: Viewer; guild: GuildRecord; directory: ServerDirectory; milestone: InviteMilestone; form?: FormState }) {
  const { guild, milestone } = props;
  return (
    <Layout title={`Edit the milestone at ${milestone.invites} invites`} viewer={props.viewer} server={invitesNav(guild)} hasErrors={!!props.form?.problem}>
      <ErrorSummary problem={props.form?.problem} />
      <p>Members who already got {roleName(props.directory, milestone.roleId)} keep it.</p>
      <MilestoneForm viewer={props.viewer} action={`${milestonePath(guild.id, milestone)}/edit`} directory={props.directory} milestone={milestone} form={props.form} submit="Save the milestone" />
      <p>
        <a href={milestonesPath(guild.id)}>Cancel</a>
      </p>
    </Layout>
  );
}

export function RemoveMilestonePage(props: { viewer: Viewer; guild: GuildRecord; directory: ServerDirectory; milestone: InviteMilestone }) {
  const { guild, milestone } = props;
  const action = `${milestonePath(guild.id, milestone)}/remove`;
  return (
    <Layout title={`Remove the milestone at ${milestone.invites} invites?`} viewer={props.viewer} server={invitesNav(guild)}>
      <p>
        Members reaching {milestone.invites} invites no longer get {roleName(props.directory, milestone.roleId)}; members who got it keep it.
      </p>
      <form method="post" action={action}>
        <FormFields viewer={props.viewer} action={action} />
        <button type="submit" class="danger">
          Remove the milestone
        </button>{' '}
        <a href={milestonesPath(guild.id)}>Cancel</a>
      </form>
    </Layout>
  );
}
