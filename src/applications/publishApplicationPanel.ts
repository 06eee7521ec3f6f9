import type { Kysely } from 'kysely';
import { findApplicationPanel, listFormTitles, saveApplicationPanel, type ApplicationPanel, type ApplicationPanelSettings } from '../../db/applications/panels.js';
import { findGuild } from '../../db/guild/guilds.js';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import { fitButtonLabel, MAX_BUTTONS } from '../core/buttonLimits.js';
import type { Clock } from '../core/clock.js';
import { checkPanelPlace, MAX_CONTENT, placePanelMessage, type PanelOutcome } from '../core/panelMessages.js';
import { PanelRefusal } from '../core/panelRefusal.js';
import type { Platform, PlatformButton } from '../core/platform.js';
import { applicationApplyButtonId } from './applicationButtons.js';

export interface ApplicationPanelDeps {
  db: Kysely<Database>;
  platform: Platform;
  clock: Clock;
}

/** A change to an application panel: each field undefined keeps what the panel has (formIds null: every form). */
export interface ApplicationPanelChange {
  channelId?: string;
  text?: string;
  formIds?: number[] | null;
}

export interface ApplicationPanelPublishing {
  guildId: string;
  panelId: number;
  change: ApplicationPanelChange;
  /** `update` refuses a panel never posted; `post` makes it or, when it exists, changes it in place. */
  mode: 'post' | 'update';
  actor: AuditActor;
}

/**
 * Staff post or change an application panel: its message carries one apply button per form (the form's title as the
 * label, cut to Discord's 80 characters), in rows of five, at most 25; posted once, edited in place after that
 * (posted again if someone deleted it). Run it again after adding or removing forms: the buttons follow the forms.
 * Every check runs before anything is posted, and nothing is stored unless the platform took the message.
 */
export async function publishApplicationPanel(deps: ApplicationPanelDeps, p: ApplicationPanelPublishing): Promise<{ panel: ApplicationPanel; outcome: PanelOutcome }> {
  const guild = await findGuild(deps.db, p.guildId);
  if (!guild) throw new PanelRefusal('GUILD_NOT_FOUND', `Guild ${p.guildId} does not exist.`);
  if (!guild.features.includes('applications')) throw new PanelRefusal('FEATURE_DISABLED', `The Applications feature is disabled in guild ${p.guildId}.`);
  const before = await findApplicationPanel(deps.db, p.guildId, p.panelId);
  if (!before && p.mode === 'update') throw new PanelRefusal('PANEL_NOT_FOUND', `Application panel ${p.panelId} was never posted in guild ${p.guildId}; post it first.`);
  const settings = mergeSettings(before, p.change);
  const buttons = await formButtons(deps.db, p.guildId, settings.formIds, p.change.formIds ?? []);
  await checkPanelPlace(deps.platform, p.guildId, { channelId: settings.channelId });

  const placed = await placePanelMessage(deps.platform, {
    guildId: p.guildId,
    channelId: settings.channelId,
    previous: before?.message ?? null,
    posts: before?.posts ?? 0,
    keyOf: (post) => `application-panel/${p.guildId}/${p.panelId}/${post}`,
    content: settings.text,
    buttons,
  });
  const panel: ApplicationPanel = { guildId: p.guildId, panelId: p.panelId, ...settings, message: placed.message, posts: placed.posts, updatedAt: deps.clock.now() };
  await deps.db.transaction().execute(async (trx) => {
    await saveApplicationPanel(trx, panel);
    await writeAudit(trx, {
      guildId: p.guildId,
      actor: p.actor,
      action: 'applications.panel',
      target: { type: 'application_panel', id: String(p.panelId) },
      data: { outcome: placed.outcome, messageId: placed.message.messageId, forms: buttons.length, before: before ? settingsOf(before) : null, after: settingsOf(panel) },
    });
  });
  return { panel, outcome: placed.outcome };
}

function mergeSettings(before: ApplicationPanelSettings | undefined, c: ApplicationPanelChange): ApplicationPanelSettings {
  const channelId = c.channelId ?? before?.channelId;
  const text = c.text ?? before?.text;
  if (!channelId || text === undefined) throw new PanelRefusal('INVALID_PANEL', 'A new application panel needs a channel and a text.');
  if (text.trim() === '' || text.length > MAX_CONTENT) throw new PanelRefusal('INVALID_PANEL', `The panel text has 1 to ${MAX_CONTENT} characters (Discord's limit); it has ${text.length}.`);
  const formIds = c.formIds === undefined ? (before?.formIds ?? null) : c.formIds;
  if (formIds && new Set(formIds).size !== formIds.length) throw new PanelRefusal('INVALID_PANEL', 'A form is named twice.');
  return { channelId, text, formIds };
}

/**
 * One apply button per form shown: the forms named (those named in this change must exist; one deleted since an
 * earlier change drops out), or every form of the server. Refused when there are none, or more than Discord shows.
 */
async function formButtons(db: Kysely<Database>, guildId: string, formIds: number[] | null, named: number[]): Promise<PlatformButton[]> {
  const forms = await listFormTitles(db, guildId);
  const byId = new Map(forms.map((f) => [f.id, f]));
  const missing = named.find((id) => !byId.has(id));
  if (missing !== undefined) throw new PanelRefusal('FORM_NOT_FOUND', `Form ${missing} is not a form of guild ${guildId}.`);
  const shown = formIds ? formIds.flatMap((id) => byId.get(id) ?? []) : forms;
  if (shown.length === 0) throw new PanelRefusal('INVALID_PANEL', `Guild ${guildId} has no application form to show; create one first.`);
  if (shown.length > MAX_BUTTONS) {
    throw new PanelRefusal('TOO_MANY_BUTTONS', `A message holds at most ${MAX_BUTTONS} buttons (5 rows of 5) and the panel would show ${shown.length} forms; name at most ${MAX_BUTTONS} of them.`);
  }
  return shown.map((f) => ({ id: applicationApplyButtonId(f.id), label: fitButtonLabel(f.title) }));
}

const settingsOf = ({ channelId, text, formIds }: ApplicationPanelSettings) => ({ channelId, text, formIds });
