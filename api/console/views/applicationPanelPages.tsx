import type { ApplicationPanel } from '../../../db/applications/panels.js';
import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { ServerDirectory } from '../../../src/console/serverDirectory.js';
import { TextField } from './fields.js';
import { ErrorSummary, FieldMessage, FormFields, invalidAttrs, type FormState } from './formParts.js';
import { isoTime, Layout, type Viewer } from './layout.js';
import { ListView } from './listView.js';
import { ChannelPicker } from './pickers.js';

/** The ids (and names) of the application panel form's fields. */
export const APP_PANEL_FIELDS = { channel: 'app-panel-channel', text: 'app-panel-text', forms: 'app-panel-forms' } as const;

export const appPanelsPath = (guildId: string) => `/console/servers/${guildId}/applications/panels`;
const nav = (guild: GuildRecord) => ({ id: guild.id, name: guild.name, active: 'applications' as const });
const channelName = (directory: ServerDirectory, id: string) => directory.channels.find((c) => c.id === id)?.name ?? id;
type FormTitle = { id: number; title: string };

export function AppPanelsPage(props: { viewer: Viewer; guild: GuildRecord; panels: ApplicationPanel[]; forms: FormTitle[]; directory: ServerDirectory; laterHref: string | null }) {
  const { guild } = props;
  const formNames = (ids: number[] | null) => (ids ? ids.map((id) => props.forms.find((f) => f.id === id)?.title ?? `form ${id} (deleted)`).join(', ') : 'every form');
  return (
    <Layout title="Application panels" viewer={props.viewer} server={nav(guild)}>
      <p>A panel is the bot's message with one apply button per form. Post it again after changing forms: its buttons follow them.</p>
      <ul class="actions">
        <li>
          <a href={`${appPanelsPath(guild.id)}/new`}>New panel</a>
        </li>
        <li>
          <a href={`/console/servers/${guild.id}/applications/forms`}>Application forms</a>
        </li>
      </ul>
      <ListView
        caption="Application panels"
        columns={['Panel', 'Channel', 'Forms', 'Updated']}
        rows={props.panels}
        empty={{ name: 'application-panels', text: 'No panel yet. Create a form, then post a panel (New panel) so members can apply.' }}
        row={(p) => (
          <tr data-panel={String(p.panelId)}>
            <td>
              <a href={`${appPanelsPath(guild.id)}/${p.panelId}`}>Panel {p.panelId}</a>
            </td>
            <td>#{channelName(props.directory, p.channelId)}</td>
            <td>{formNames(p.formIds)}</td>
            <td>{isoTime(p.updatedAt)}</td>
          </tr>
        )}
        older={{ href: props.laterHref, label: 'More panels' }}
      />
    </Layout>
  );
}

/** Post a new panel, or change a posted one (edited in place, posted again if someone deleted it). */
export function AppPanelFormPage(props: { viewer: Viewer; guild: GuildRecord; directory: ServerDirectory; forms: FormTitle[]; panel?: ApplicationPanel; state?: FormState }) {
  const { guild, panel } = props;
  const sent = props.state?.values;
  const problem = props.state?.problem;
  const action = panel ? `${appPanelsPath(guild.id)}/${panel.panelId}` : appPanelsPath(guild.id);
  const picked = sent ? sent.getAll(APP_PANEL_FIELDS.forms) : (panel?.formIds ?? []).map(String);
  return (
    <Layout title={panel ? `Application panel ${panel.panelId}` : 'New application panel'} viewer={props.viewer} server={nav(guild)} hasErrors={!!problem}>
      <ErrorSummary problem={problem} />
      <form method="post" action={action}>
        <FormFields viewer={props.viewer} action={action} />
        <ChannelPicker name={APP_PANEL_FIELDS.channel} label="Channel" directory={props.directory} types={['text', 'announcement']} selected={sent ? sent.get(APP_PANEL_FIELDS.channel) : panel?.channelId} problem={problem} />
        <TextField rows={4} name={APP_PANEL_FIELDS.text} label="Text" hint="What members read above the buttons; up to 2,000 characters." value={sent ? (sent.get(APP_PANEL_FIELDS.text) ?? '') : (panel?.text ?? '')} maxLength={2000} required problem={problem} />
        <fieldset id={APP_PANEL_FIELDS.forms} {...invalidAttrs(problem, APP_PANEL_FIELDS.forms, true)}>
          <legend>Forms</legend>
          <span class="muted hint">None ticked: every form, in the forms' order (at most 25 buttons).</span>
          <FieldMessage problem={problem} field={APP_PANEL_FIELDS.forms} />
          {props.forms.map((f) => (
            <label class="check">
              <input type="checkbox" name={APP_PANEL_FIELDS.forms} value={String(f.id)} checked={picked.includes(String(f.id))} /> {f.title}
            </label>
          ))}
        </fieldset>
        <button type="submit">{panel ? 'Update the panel message' : 'Post the panel'}</button> <a href={appPanelsPath(guild.id)}>Cancel</a>
      </form>
    </Layout>
  );
}
