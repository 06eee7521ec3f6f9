import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { TicketPanel } from '../../../db/tickets/panels.js';
import type { ServerDirectory } from '../../../src/console/serverDirectory.js';
import { DataTable } from './dataTable.js';
import { TextField } from './fields.js';
import { ErrorSummary, FormFields, type FormState } from './formParts.js';
import { isoTime, Layout, type Viewer } from './layout.js';
import { OlderLink } from './olderLink.js';
import { ChannelPicker, RolesPicker } from './pickers.js';

/** The ids (and names) of the panel form's fields; the error summary links to them. */
export const PANEL_FIELDS = {
  channel: 'panel-channel',
  title: 'panel-title',
  text: 'panel-text',
  label: 'panel-label',
  category: 'panel-category',
  staffRoles: 'panel-staff-roles',
} as const;
export const SETTINGS_FIELDS = { logChannel: 'ticket-log-channel', transcripts: 'ticket-transcripts' } as const;

export const panelsPath = (guildId: string) => `/console/servers/${guildId}/tickets/panels`;
const nav = (guild: GuildRecord) => ({ id: guild.id, name: guild.name, active: 'tickets' as const });
const channelName = (directory: ServerDirectory, id: string | null) => {
  const channel = id ? directory.channels.find((c) => c.id === id) : undefined;
  return channel ? channel.name : id;
};

export interface TicketSetup {
  logChannelId: string | null;
  transcripts: boolean;
}

function SettingsForm(props: { viewer: Viewer; guild: GuildRecord; directory: ServerDirectory; settings: TicketSetup; form?: FormState }) {
  const action = `/console/servers/${props.guild.id}/tickets/settings`;
  const sent = props.form?.values;
  const logChannel = sent ? sent.get(SETTINGS_FIELDS.logChannel) : props.settings.logChannelId;
  const transcripts = sent ? sent.get(SETTINGS_FIELDS.transcripts) === 'on' : props.settings.transcripts;
  return (
    <form method="post" action={action} class="card">
      <h2>Settings</h2>
      <FormFields viewer={props.viewer} action={action} />
      <ChannelPicker
        name={SETTINGS_FIELDS.logChannel}
        label="Log channel"
        hint="Each close is logged here, with its reason."
        directory={props.directory}
        types={['text', 'announcement']}
        selected={logChannel}
        none="No log"
        problem={props.form?.problem}
      />
      <p>
        <label class="check">
          <input type="checkbox" id={SETTINGS_FIELDS.transcripts} name={SETTINGS_FIELDS.transcripts} value="on" checked={transcripts} /> Save a
          transcript of each ticket when it closes
        </label>
      </p>
      <button type="submit">Save the settings</button>
    </form>
  );
}

export function TicketPanelsPage(props: {
  viewer: Viewer;
  guild: GuildRecord;
  panels: TicketPanel[];
  olderHref: string | null;
  directory: ServerDirectory;
  settings: TicketSetup;
  form?: FormState;
}) {
  const { guild, directory } = props;
  return (
    <Layout title="Ticket panels and settings" viewer={props.viewer} server={nav(guild)} hasErrors={!!props.form?.problem}>
      <ErrorSummary problem={props.form?.problem} />
      <p>
        A panel is a message the bot posts with an open button; pressing it opens a ticket. <a href={`${panelsPath(guild.id)}/new`}>New panel</a>
        {' · '}
        <a href={`/console/servers/${guild.id}/tickets`}>The tickets</a>
      </p>
      <DataTable
        caption="Ticket panels"
        columns={['Panel', 'Channel', 'Button', 'Staff roles', 'Changed', <span class="visually-hidden">Actions</span>]}
        rows={props.panels}
        empty={{ name: 'panels', text: 'No ticket panel yet. Make one with "New panel": the bot posts it in the channel you pick.' }}
        row={(p) => (
          <tr data-panel-id={String(p.panelId)}>
            <td>
              #{p.panelId} {p.title ?? <span class="muted">(no title)</span>}
            </td>
            <td>#{channelName(directory, p.channelId)}</td>
            <td>{p.buttonLabel}</td>
            <td>{p.staffRoleIds.map((id) => `@${directory.roles.find((r) => r.id === id)?.name ?? id}`).join(', ') || 'none'}</td>
            <td>{isoTime(p.updatedAt)}</td>
            <td>
              <a href={`${panelsPath(guild.id)}/${p.panelId}`} aria-label={`Edit panel #${p.panelId}`}>
                Edit
              </a>
            </td>
          </tr>
        )}
      />
      <OlderLink href={props.olderHref} label="More panels" />
      <SettingsForm viewer={props.viewer} guild={guild} directory={directory} settings={props.settings} form={props.form} />
    </Layout>
  );
}

/** The settings a panel form starts from: the panel's, or what was sent when the form came back. */
function valuesOf(panel: TicketPanel | undefined, form: FormState | undefined) {
  if (form) {
    const v = form.values;
    return {
      channelId: v.get(PANEL_FIELDS.channel),
      title: v.get(PANEL_FIELDS.title) ?? '',
      text: v.get(PANEL_FIELDS.text) ?? '',
      label: v.get(PANEL_FIELDS.label) ?? '',
      categoryId: v.get(PANEL_FIELDS.category),
      staffRoleIds: v.getAll(PANEL_FIELDS.staffRoles),
    };
  }
  return {
    channelId: panel?.channelId ?? null,
    title: panel?.title ?? '',
    text: panel?.text ?? '',
    label: panel?.buttonLabel ?? 'Open a ticket',
    categoryId: panel?.categoryId ?? null,
    staffRoleIds: panel?.staffRoleIds ?? [],
  };
}

/** A new panel (`panel` undefined) or a posted one: saving posts its message, or edits it in place. */
export function TicketPanelFormPage(props: { viewer: Viewer; guild: GuildRecord; directory: ServerDirectory; panel?: TicketPanel; form?: FormState }) {
  const { guild, directory, panel } = props;
  const action = panel ? `${panelsPath(guild.id)}/${panel.panelId}` : panelsPath(guild.id);
  const problem = props.form?.problem;
  const v = valuesOf(panel, props.form);
  return (
    <Layout title={panel ? `Ticket panel #${panel.panelId}` : 'New ticket panel'} viewer={props.viewer} server={nav(guild)} hasErrors={!!problem}>
      <ErrorSummary problem={problem} />
      {panel && (
        <p>
          Saving edits the panel's message in place{panel.message ? '' : ' (it was never posted)'}; if someone deleted it, the bot posts it again.
        </p>
      )}
      <form method="post" action={action}>
        <FormFields viewer={props.viewer} action={action} />
        <ChannelPicker name={PANEL_FIELDS.channel} label="Channel" hint="Where the bot posts the panel." directory={directory} types={['text', 'announcement']} selected={v.channelId} problem={problem} />
        <TextField name={PANEL_FIELDS.title} label="Title (optional)" hint="A bold first line, up to 100 characters." value={v.title} maxLength={100} problem={problem} />
        <TextField rows={4} name={PANEL_FIELDS.text} label="Text" hint="What members read above the button; title and text up to 2,000 characters together." value={v.text} maxLength={2000} problem={problem} />
        <TextField name={PANEL_FIELDS.label} label="Button label" hint="1 to 80 characters." value={v.label} maxLength={80} problem={problem} />
        <ChannelPicker
          name={PANEL_FIELDS.category}
          label="Category where tickets open"
          directory={directory}
          types={['category']}
          selected={v.categoryId}
          none="No category (the top of the channel list)"
          problem={problem}
        />
        <RolesPicker name={PANEL_FIELDS.staffRoles} label="Staff roles" hint="They see every ticket of this panel (up to 10)." directory={directory} selected={v.staffRoleIds} problem={problem} />
        <button type="submit">{panel ? 'Save and update the message' : 'Post the panel'}</button> <a href={panelsPath(guild.id)}>Cancel</a>
      </form>
    </Layout>
  );
}
