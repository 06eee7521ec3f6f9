import type { ApplicationPanel } from '../../../db/applications/panels.js';
import { publishApplicationPanel } from '../../../src/applications/publishApplicationPanel.js';
import { nextApplicationPanelId, readApplicationPanel, readApplicationPanelPage, readFormTitles } from '../../../src/applications/readFormSettings.js';
import { readServerDirectory, type ServerDirectory } from '../../../src/console/serverDirectory.js';
import { PanelRefusal } from '../../../src/core/panelRefusal.js';
import type { AppDeps } from '../../context.js';
import { requireFeature } from '../consoleFeatures.js';
import { formOf, idParam, managedServer } from '../consoleDeps.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { FormRejection, submitOnce } from '../formFlow.js';
import { sendPage } from '../render.js';
import { APP_PANEL_FIELDS, AppPanelFormPage, appPanelsPath, AppPanelsPage } from '../views/applicationPanelPages.js';
import { FeatureOffPage } from '../views/featureOff.js';
import type { FieldError, FormState } from '../views/formParts.js';
import { cursorOf } from './listQuery.js';

const PAGE_SIZE = 25;
type Server = Awaited<ReturnType<typeof managedServer>>;

/** The panel form as the use case's change (no form ticked: every form), or a 400 naming each field to fix. */
function panelChangeOf(form: URLSearchParams, directory: ServerDirectory, forms: Array<{ id: number }>) {
  const errors: FieldError[] = [];
  const channelId = form.get(APP_PANEL_FIELDS.channel) ?? '';
  if (!directory.channels.some((c) => c.id === channelId && (c.type === 'text' || c.type === 'announcement'))) errors.push({ field: APP_PANEL_FIELDS.channel, message: 'Pick a text channel of this server.' });
  const text = form.get(APP_PANEL_FIELDS.text) ?? '';
  if (text.trim() === '' || text.length > 2000) errors.push({ field: APP_PANEL_FIELDS.text, message: 'Give a text of 1 to 2,000 characters.' });
  const formIds = form.getAll(APP_PANEL_FIELDS.forms).map(Number);
  if (formIds.some((id) => !forms.some((f) => f.id === id))) errors.push({ field: APP_PANEL_FIELDS.forms, message: 'Pick forms of this server.' });
  if (errors.length > 0) throw new FormRejection(400, 'INVALID_INPUT', errors);
  return { channelId, text, formIds: formIds.length === 0 ? null : formIds };
}

/** The use case's refusals that concern one field (no form to show, too many, a channel gone meanwhile), on it. */
function onThePanelForm(err: unknown): never {
  if (err instanceof PanelRefusal) {
    const field = { UNKNOWN_CHANNEL: APP_PANEL_FIELDS.channel, INVALID_PANEL: APP_PANEL_FIELDS.forms, FORM_NOT_FOUND: APP_PANEL_FIELDS.forms, TOO_MANY_BUTTONS: APP_PANEL_FIELDS.forms }[err.code as string];
    if (field) throw new FormRejection(422, err.code, [{ field, message: err.message }]);
  }
  throw err;
}

/** Application panels: post one or update its message through publishApplicationPanel, the use case of `applications panel post|update`. */
export function applicationPanelRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const base = '/servers/:guildId/applications/panels';

  async function sendPanelForm(ctx: ConsoleContext, { guild, viewer }: Server, panel?: ApplicationPanel, state?: FormState) {
    const [directory, forms] = await Promise.all([readServerDirectory(deps.platform, guild.id), readFormTitles(deps.db, guild.id)]);
    sendPage(ctx, AppPanelFormPage({ viewer, guild, directory, forms, panel, state }), state?.problem?.status);
  }

  async function savePanel(ctx: ConsoleContext, server: Server, panel?: ApplicationPanel) {
    const { guild, actor } = server;
    const form = formOf(ctx);
    await submitOnce(
      ctx,
      deps,
      async () => {
        const change = panelChangeOf(form, await readServerDirectory(deps.platform, guild.id), await readFormTitles(deps.db, guild.id));
        const target = panel ? { panelId: panel.panelId, mode: 'update' as const } : { panelId: await nextApplicationPanelId(deps.db, guild.id), mode: 'post' as const };
        await publishApplicationPanel({ db: deps.db, platform: deps.platform, clock: deps.clock }, { guildId: guild.id, ...target, change, actor }).catch(onThePanelForm);
        return appPanelsPath(guild.id);
      },
      (problem) => sendPanelForm(ctx, server, panel, { values: form, problem }),
    );
  }

  async function managing(ctx: ConsoleContext) {
    const server = await managedServer(ctx, deps);
    requireFeature(server.guild, 'applications');
    return server;
  }

  router.get(base, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    if (!guild.features.includes('applications')) return sendPage(ctx, FeatureOffPage({ viewer, guild, feature: 'applications', active: 'applications', title: 'Application panels', then: 'applications/panels' }));
    const [page, forms, directory] = await Promise.all([
      readApplicationPanelPage(deps.db, guild.id, { after: cursorOf(ctx, 'a panel number', 'after'), limit: PAGE_SIZE }),
      readFormTitles(deps.db, guild.id),
      readServerDirectory(deps.platform, guild.id),
    ]);
    const laterHref = page.nextCursor && `${appPanelsPath(guild.id)}?after=${page.nextCursor}`;
    sendPage(ctx, AppPanelsPage({ viewer, guild, panels: page.items, forms, directory, laterHref }));
  });

  router.get(`${base}/new`, async (ctx) => sendPanelForm(ctx, await managing(ctx)));
  router.post(base, async (ctx) => savePanel(ctx, await managing(ctx)));

  router.get(`${base}/:panelId`, async (ctx) => {
    const server = await managing(ctx);
    await sendPanelForm(ctx, server, await readApplicationPanel(deps.db, server.guild.id, idParam(ctx, 'panelId')));
  });
  router.post(`${base}/:panelId`, async (ctx) => {
    const server = await managing(ctx);
    await savePanel(ctx, server, await readApplicationPanel(deps.db, server.guild.id, idParam(ctx, 'panelId')));
  });
}
