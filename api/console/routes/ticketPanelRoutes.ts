import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { TicketPanel } from '../../../db/tickets/panels.js';
import { readServerDirectory, type ServerDirectory } from '../../../src/console/serverDirectory.js';
import { PanelRefusal } from '../../../src/core/panelRefusal.js';
import { changeTicketSettings } from '../../../src/tickets/changeTicketSettings.js';
import { publishTicketPanel } from '../../../src/tickets/publishTicketPanel.js';
import { readTicketPanel, readTicketPanelPage, readTicketSetup } from '../../../src/tickets/readTicketPanels.js';
import { ticketPanelProblem, type TicketPanelProblem } from '../../../src/tickets/ticketPanelRules.js';
import type { TicketPanelSettings } from '../../../db/tickets/panels.js';
import type { AppDeps } from '../../context.js';
import { requireFeature } from '../consoleFeatures.js';
import { formOf, idParam, managedServer } from '../consoleDeps.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { FormRejection, submitOnce } from '../formFlow.js';
import { sendPage } from '../render.js';
import { FeatureOffPage } from '../views/featureOff.js';
import type { FieldError, FormState } from '../views/formParts.js';
import type { Viewer } from '../views/layout.js';
import { PANEL_FIELDS, panelsPath, SETTINGS_FIELDS, TicketPanelFormPage, TicketPanelsPage } from '../views/ticketPanelPages.js';
import { cursorOf } from './listQuery.js';

const PAGE_SIZE = 25;
const FIELD_OF: Record<TicketPanelProblem['setting'], string> = {
  channelId: PANEL_FIELDS.channel,
  title: PANEL_FIELDS.title,
  text: PANEL_FIELDS.text,
  content: PANEL_FIELDS.text,
  buttonLabel: PANEL_FIELDS.label,
  categoryId: PANEL_FIELDS.category,
  staffRoleIds: PANEL_FIELDS.staffRoles,
};
const inDirectory = (directory: ServerDirectory, id: string, types: string[]) => directory.channels.some((c) => c.id === id && types.includes(c.type));

/** The panel form's settings, every field of the form (a field left empty clears an optional setting), or a 400 naming each field to fix. */
function panelSettingsOf(form: URLSearchParams, directory: ServerDirectory): TicketPanelSettings {
  const errors: FieldError[] = [];
  const channelId = form.get(PANEL_FIELDS.channel) ?? '';
  if (!inDirectory(directory, channelId, ['text', 'announcement'])) errors.push({ field: PANEL_FIELDS.channel, message: 'Pick a text channel of this server.' });
  const categoryId = form.get(PANEL_FIELDS.category) || null;
  if (categoryId && !inDirectory(directory, categoryId, ['category'])) errors.push({ field: PANEL_FIELDS.category, message: 'Pick a category of this server, or none.' });
  const staffRoleIds = form.getAll(PANEL_FIELDS.staffRoles);
  if (staffRoleIds.some((id) => !directory.roles.some((r) => r.id === id && !r.managed))) errors.push({ field: PANEL_FIELDS.staffRoles, message: 'Pick roles of this server.' });
  const title = (form.get(PANEL_FIELDS.title) ?? '').trim();
  const settings = { channelId, title: title === '' ? null : title, text: form.get(PANEL_FIELDS.text) ?? '', buttonLabel: form.get(PANEL_FIELDS.label) ?? '', categoryId, staffRoleIds };
  const problem = ticketPanelProblem(settings);
  if (problem) errors.push({ field: FIELD_OF[problem.setting], message: problem.message });
  if (errors.length > 0) throw new FormRejection(400, 'INVALID_INPUT', errors);
  return settings;
}

/** The platform's refusal of the panel's place (a channel or role gone since the page was drawn), on the form. */
function onThePanelForm(err: unknown): never {
  if (err instanceof PanelRefusal) {
    const field = { UNKNOWN_CHANNEL: PANEL_FIELDS.channel, UNKNOWN_CATEGORY: PANEL_FIELDS.category, UNKNOWN_ROLE: PANEL_FIELDS.staffRoles }[err.code as string];
    if (field) throw new FormRejection(422, err.code, [{ field, message: err.message }]);
  }
  throw err;
}

/** Ticket panels (post, or edit in place: the use case of `tickets panel post|update`) and the ticket settings. */
export function ticketPanelRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const base = '/servers/:guildId/tickets/panels';
  const publishing = (deps: AppDeps) => ({ db: deps.db, platform: deps.platform, clock: deps.clock });

  async function sendPanelsPage(ctx: ConsoleContext, guild: GuildRecord, viewer: Viewer, form?: FormState) {
    const before = cursorOf(ctx, 'a panel number');
    const [page, settings, directory] = await Promise.all([
      readTicketPanelPage(deps.db, guild.id, { before, limit: PAGE_SIZE }),
      readTicketSetup(deps.db, guild.id),
      readServerDirectory(deps.platform, guild.id),
    ]);
    const olderHref = page.nextCursor && `${panelsPath(guild.id)}?before=${page.nextCursor}`;
    sendPage(ctx, TicketPanelsPage({ viewer, guild, panels: page.items, olderHref, directory, settings, form }), form?.problem?.status);
  }

  async function sendPanelForm(ctx: ConsoleContext, guild: GuildRecord, viewer: Viewer, panel?: TicketPanel, form?: FormState) {
    const directory = await readServerDirectory(deps.platform, guild.id);
    sendPage(ctx, TicketPanelFormPage({ viewer, guild, directory, panel, form }), form?.problem?.status);
  }

  async function panelOf(ctx: ConsoleContext) {
    const server = await managedServer(ctx, deps);
    requireFeature(server.guild, 'tickets');
    return { ...server, panel: await readTicketPanel(deps.db, server.guild.id, idParam(ctx, 'panelId')) };
  }

  /** Posts a new panel, or edits `panel` in place, from the panel form; refused input stays on the form. */
  async function savePanel(ctx: ConsoleContext, { guild, viewer, actor }: Awaited<ReturnType<typeof managedServer>>, panel?: TicketPanel) {
    const form = formOf(ctx);
    await submitOnce(
      ctx,
      deps,
      async () => {
        const change = panelSettingsOf(form, await readServerDirectory(deps.platform, guild.id));
        const target = panel ? { panelId: panel.panelId, mode: 'update' as const } : { panelId: (await readTicketSetup(deps.db, guild.id)).nextPanelId, mode: 'create' as const };
        await publishTicketPanel(publishing(deps), { guildId: guild.id, ...target, change, actor }).catch(onThePanelForm);
        return panelsPath(guild.id);
      },
      (problem) => sendPanelForm(ctx, guild, viewer, panel, { values: form, problem }),
    );
  }

  router.get(base, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    if (!guild.features.includes('tickets')) return sendPage(ctx, FeatureOffPage({ viewer, guild, feature: 'tickets', active: 'tickets', title: 'Ticket panels and settings', then: 'tickets/panels' }));
    await sendPanelsPage(ctx, guild, viewer);
  });

  router.get(`${base}/new`, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    requireFeature(guild, 'tickets');
    await sendPanelForm(ctx, guild, viewer);
  });

  router.post(base, async (ctx) => {
    const server = await managedServer(ctx, deps);
    requireFeature(server.guild, 'tickets');
    await savePanel(ctx, server);
  });

  router.get(`${base}/:panelId`, async (ctx) => {
    const { guild, viewer, panel } = await panelOf(ctx);
    await sendPanelForm(ctx, guild, viewer, panel);
  });

  router.post(`${base}/:panelId`, async (ctx) => {
    const { panel, ...server } = await panelOf(ctx);
    await savePanel(ctx, server, panel);
  });

  router.post('/servers/:guildId/tickets/settings', async (ctx) => {
    const { guild, viewer, actor } = await managedServer(ctx, deps);
    requireFeature(guild, 'tickets');
    const form = formOf(ctx);
    await submitOnce(
      ctx,
      deps,
      async () => {
        const logChannelId = form.get(SETTINGS_FIELDS.logChannel) || null;
        if (logChannelId && !inDirectory(await readServerDirectory(deps.platform, guild.id), logChannelId, ['text', 'announcement'])) {
          throw new FormRejection(400, 'INVALID_INPUT', [{ field: SETTINGS_FIELDS.logChannel, message: 'Pick a text channel of this server, or no log.' }]);
        }
        const transcripts = form.get(SETTINGS_FIELDS.transcripts) === 'on';
        const now = await readTicketSetup(deps.db, guild.id);
        // Only what the form changed is passed: saving the form unchanged writes no audit row.
        await deps.db.transaction().execute((trx) =>
          changeTicketSettings(trx, {
            guildId: guild.id,
            logChannelId: logChannelId === now.logChannelId ? undefined : logChannelId,
            transcripts: transcripts === now.transcripts ? undefined : transcripts,
            actor,
          }),
        );
        return panelsPath(guild.id);
      },
      (problem) => sendPanelsPage(ctx, guild, viewer, { values: form, problem }),
    );
  });
}
