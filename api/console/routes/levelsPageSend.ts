import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { ConsoleRefusal } from '../../../src/console/errors.js';
import { readLevelsOverview } from '../../../src/console/levelsOverview.js';
import { LevelSettingsRefusal } from '../../../src/levels/levelRules.js';
import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { AppDeps } from '../../context.js';
import type { AuditActor } from '../../../db/shared/audit.js';
import { managedServer } from '../consoleDeps.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { formPost, FormRejection } from '../formFlow.js';
import { sendPage } from '../render.js';
import type { FormState } from '../views/formParts.js';
import type { Viewer } from '../views/layout.js';
import { SETTING_FIELD, type LevelForm } from '../views/levelFields.js';
import { LevelsPage } from '../views/levelsPage.js';

/** The levels page (settings, rewards, leaderboard page `?cursor=`), with a form that came back when there is one. */
export async function sendLevelsPage(ctx: ConsoleContext, deps: AppDeps, guild: GuildRecord, viewer: Viewer, form?: FormState & { name: LevelForm }): Promise<void> {
  const raw = typeof ctx.query.cursor === 'string' ? ctx.query.cursor : '0';
  if (!/^\d{1,8}$/.test(raw)) throw new ConsoleRefusal('INVALID_INPUT', '`cursor` is a rank to start after.');
  const overview = await readLevelsOverview(deps, guild, Number(raw));
  const next = overview.leaderboard.nextCursor;
  const olderHref = next ? `/console/servers/${guild.id}/levels?cursor=${next}` : null;
  sendPage(ctx, LevelsPage({ viewer, guild, overview, olderHref, form }), form?.problem?.status);
}

/** Runs a levels use case in one transaction, a refusal coming back on the form's field it concerns (422). */
export async function levelsChange<T>(deps: AppDeps, run: (trx: Kysely<Database>) => Promise<T>, message?: (err: LevelSettingsRefusal) => string): Promise<T> {
  return deps.db
    .transaction()
    .execute(run)
    .catch((err: unknown) => {
      if (!(err instanceof LevelSettingsRefusal)) throw err;
      throw new FormRejection(422, err.code, [{ field: SETTING_FIELD[err.setting], message: message?.(err) ?? err.message }]);
    });
}

/**
 * A levels page form's POST: a fresh manager check, the change once per form token, back to the levels page, or the
 * page again with this form's input and problem.
 */
export function levelsForm(
  router: ConsoleRouter,
  deps: AppDeps,
  path: string,
  name: LevelForm,
  change: (form: URLSearchParams, guildId: string, actor: AuditActor) => Promise<unknown>,
): void {
  formPost(router, deps, path, {
    server: (ctx) => managedServer(ctx, deps),
    change: async ({ guild, actor }, form) => {
      await change(form, guild.id, actor);
      return `/console/servers/${guild.id}/levels`;
    },
    rejected: ({ guild, viewer }, form, problem, ctx) => sendLevelsPage(ctx, deps, guild, viewer, { name, values: form, problem }),
  });
}
