import type { Kysely } from 'kysely';
import { findGuild } from '../../db/guild/guilds.js';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import { findTicketPanel, saveTicketPanel, type TicketPanel } from '../../db/tickets/panels.js';
import type { Clock } from '../core/clock.js';
import { checkPanelPlace, placePanelMessage, type PanelOutcome } from '../core/panelMessages.js';
import { PanelRefusal } from '../core/panelRefusal.js';
import type { Platform } from '../core/platform.js';
import { ticketPanelButtonId } from './panelButtons.js';
import { mergeTicketPanel, ticketPanelContent, type TicketPanelChange } from './ticketPanelRules.js';

export interface PanelDeps {
  db: Kysely<Database>;
  platform: Platform;
  clock: Clock;
}

export interface TicketPanelPublishing {
  guildId: string;
  panelId: number;
  change: TicketPanelChange;
  /**
   * `update` refuses a panel never posted; `post` makes it or, when it exists, changes it in place; `create` (the
   * console's new panel, numbered for the manager) refuses a number already taken, so a new panel never replaces one.
   */
  mode: 'post' | 'update' | 'create';
  actor: AuditActor;
}

/**
 * Staff post or change a ticket panel (the admin CLI and the console): its message, with the panel's open
 * button, is posted once and edited in place after that (posted again if someone deleted it). Every check runs
 * before anything is posted; the settings and the message's place are stored, with an audit row, only once the
 * platform took the message, so a refusal (unknown channel, a permission the bot lacks) changes nothing.
 */
export async function publishTicketPanel(deps: PanelDeps, p: TicketPanelPublishing): Promise<{ panel: TicketPanel; outcome: PanelOutcome }> {
  const guild = await findGuild(deps.db, p.guildId);
  if (!guild) throw new PanelRefusal('GUILD_NOT_FOUND', `Guild ${p.guildId} does not exist.`);
  if (!guild.features.includes('tickets')) throw new PanelRefusal('FEATURE_DISABLED', `The Tickets feature is disabled in guild ${p.guildId}.`);
  const before = await findTicketPanel(deps.db, p.guildId, p.panelId);
  if (!before && p.mode === 'update') throw new PanelRefusal('PANEL_NOT_FOUND', `Ticket panel ${p.panelId} was never posted in guild ${p.guildId}; post it first.`);
  if (before && p.mode === 'create') throw new PanelRefusal('PANEL_EXISTS', `Ticket panel ${p.panelId} already exists in guild ${p.guildId}.`);
  const settings = mergeTicketPanel(before, p.change);
  if (typeof settings === 'string') throw new PanelRefusal('INVALID_PANEL', settings);
  await checkPanelPlace(deps.platform, p.guildId, { channelId: settings.channelId, categoryId: settings.categoryId, roleIds: settings.staffRoleIds });

  const placed = await placePanelMessage(deps.platform, {
    guildId: p.guildId,
    channelId: settings.channelId,
    previous: before?.message ?? null,
    posts: before?.posts ?? 0,
    keyOf: (post) => `ticket-panel/${p.guildId}/${p.panelId}/${post}`,
    content: ticketPanelContent(settings),
    buttons: [{ id: ticketPanelButtonId(p.panelId), label: settings.buttonLabel.trim() }],
  });
  const panel: TicketPanel = { guildId: p.guildId, panelId: p.panelId, ...settings, message: placed.message, posts: placed.posts, updatedAt: deps.clock.now() };
  await deps.db.transaction().execute(async (trx) => {
    await saveTicketPanel(trx, panel);
    await writeAudit(trx, {
      guildId: p.guildId,
      actor: p.actor,
      action: 'tickets.panel',
      target: { type: 'ticket_panel', id: String(p.panelId) },
      data: { outcome: placed.outcome, messageId: placed.message.messageId, before: before ? settingsOf(before) : null, after: settingsOf(panel) },
    });
  });
  return { panel, outcome: placed.outcome };
}

const settingsOf = ({ channelId, title, text, buttonLabel, categoryId, staffRoleIds }: TicketPanel) => ({ channelId, title, text, buttonLabel, categoryId, staffRoleIds });
