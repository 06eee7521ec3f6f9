import type { FormRecord } from '../../../db/applications/forms.js';
import type { GuildRecord } from '../../../db/guild/guilds.js';
import { changeForm } from '../../../src/applications/changeForm.js';
import { createForm } from '../../../src/applications/createForm.js';
import { readForm, readFormPage } from '../../../src/applications/readFormSettings.js';
import { readServerDirectory } from '../../../src/console/serverDirectory.js';
import type { AppDeps } from '../../context.js';
import { requireFeature } from '../consoleFeatures.js';
import { formOf, idParam, managedServer } from '../consoleDeps.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { submitOnce } from '../formFlow.js';
import { sendPage } from '../render.js';
import { FormEditPage, formsPath, FormsPage } from '../views/applicationFormPages.js';
import { FeatureOffPage } from '../views/featureOff.js';
import type { FormState } from '../views/formParts.js';
import type { Viewer } from '../views/layout.js';
import { formEditOf } from './applicationFormInput.js';
import { cursorOf } from './listQuery.js';

const PAGE_SIZE = 25;
// A new form's wait after a denial, as `npm run admin -- applications simulate` gives one: a week.
const REAPPLY_COOLDOWN = 7 * 86_400;

/** Application forms: the list, a new form (createForm) and a form's editor (changeForm), audited with the console user. */
export function applicationFormRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const base = '/servers/:guildId/applications/forms';

  async function sendForm(ctx: ConsoleContext, guild: GuildRecord, viewer: Viewer, form?: FormRecord, state?: FormState) {
    const directory = await readServerDirectory(deps.platform, guild.id);
    sendPage(ctx, FormEditPage({ viewer, guild, directory, form, state }), state?.problem?.status);
  }

  /** Creates a form (createForm), or changes `record` (changeForm), from the editor; refused input stays on it. */
  async function saveForm(ctx: ConsoleContext, { guild, viewer, actor }: Awaited<ReturnType<typeof managedServer>>, record?: FormRecord) {
    const form = formOf(ctx);
    await submitOnce(
      ctx,
      deps,
      async () => {
        const edit = formEditOf(form, await readServerDirectory(deps.platform, guild.id));
        if (record) {
          await deps.db.transaction().execute((trx) => changeForm(trx, { guildId: guild.id, formId: record.id, edit, actor }));
          return formsPath(guild.id);
        }
        const draft = { ...edit, guildId: guild.id, opensAt: null, closesAt: null, reapplyCooldownSeconds: REAPPLY_COOLDOWN, announceChannelId: null, at: deps.clock.now(), actor };
        const created = await deps.db.transaction().execute((trx) => createForm(trx, draft));
        return `${formsPath(guild.id)}/${created.id}`;
      },
      (problem) => sendForm(ctx, guild, viewer, record, { values: form, problem }),
    );
  }

  async function formOfPath(ctx: ConsoleContext) {
    const server = await managedServer(ctx, deps);
    requireFeature(server.guild, 'applications');
    return { ...server, form: await readForm(deps.db, server.guild.id, idParam(ctx, 'formId')) };
  }

  router.get(base, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    if (!guild.features.includes('applications')) return sendPage(ctx, FeatureOffPage({ viewer, guild, feature: 'applications', active: 'applications', title: 'Application forms', then: 'applications/forms' }));
    const page = await readFormPage(deps.db, guild.id, { after: cursorOf(ctx, 'a form place', 'after'), limit: PAGE_SIZE });
    const laterHref = page.nextCursor && `${formsPath(guild.id)}?after=${page.nextCursor}`;
    sendPage(ctx, FormsPage({ viewer, guild, forms: page.items, laterHref }));
  });

  router.get(`${base}/new`, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    requireFeature(guild, 'applications');
    await sendForm(ctx, guild, viewer);
  });

  router.post(base, async (ctx) => {
    const server = await managedServer(ctx, deps);
    requireFeature(server.guild, 'applications');
    await saveForm(ctx, server);
  });

  router.get(`${base}/:formId`, async (ctx) => {
    const { guild, viewer, form } = await formOfPath(ctx);
    await sendForm(ctx, guild, viewer, form);
  });

  router.post(`${base}/:formId`, async (ctx) => {
    const { form, ...server } = await formOfPath(ctx);
    await saveForm(ctx, server, form);
  });
}
