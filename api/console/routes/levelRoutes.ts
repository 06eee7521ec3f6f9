import { readLevelsOverview } from '../../../src/console/levelsOverview.js';
import { ConsoleRefusal } from '../../../src/console/errors.js';
import type { LevelAnnounceTarget } from '../../../db/levels/members.js';
import type { GuildRecord } from '../../../db/guild/guilds.js';
import { changeLevelSettings, LevelSettingsRefusal } from '../../../src/levels/changeLevelSettings.js';
import type { AppDeps } from '../../context.js';
import { formOf, managedServer } from '../consoleDeps.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { FormRejection, submitOnce } from '../formFlow.js';
import { sendPage } from '../render.js';
import type { FormState } from '../views/formParts.js';
import type { Viewer } from '../views/layout.js';
import { LEVEL_FIELDS, LevelsPage } from '../views/levelsPage.js';

const TARGETS: readonly LevelAnnounceTarget[] = ['channel', 'current', 'dm', 'off'];
const isTarget = (v: string): v is LevelAnnounceTarget => (TARGETS as readonly string[]).includes(v);

const FIELD_OF = { INVALID_TEMPLATE: LEVEL_FIELDS.message, INVALID_CHANNEL: LEVEL_FIELDS.channel, ANNOUNCE_CHANNEL_REQUIRED: LEVEL_FIELDS.channel } as const;

/** The settings form's input: every field is sent, so each is a change (the use case skips what is as it was). */
function parseSettings(form: URLSearchParams) {
  const announceTo = form.get('announceTo') ?? '';
  if (!isTarget(announceTo)) throw new FormRejection(400, 'INVALID_INPUT', [{ field: LEVEL_FIELDS.announceTo, message: 'Choose where level-ups are announced.' }]);
  const channel = form.get(LEVEL_FIELDS.channel) ?? '';
  return { announceTo, announceChannelId: channel === '' ? null : channel, announceTemplate: form.get(LEVEL_FIELDS.message) ?? '' };
}

/**
 * Levels: the announcement settings (the admin CLI's `levels settings`, src/levels/changeLevelSettings.ts) and the
 * leaderboard (the API's reader), paged by rank.
 */
export function levelRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const base = '/servers/:guildId/levels';

  async function sendLevelsPage(ctx: ConsoleContext, guild: GuildRecord, viewer: Viewer, form?: FormState): Promise<void> {
    const raw = typeof ctx.query.cursor === 'string' ? ctx.query.cursor : '0';
    if (!/^\d{1,8}$/.test(raw)) throw new ConsoleRefusal('INVALID_INPUT', '`cursor` is a rank to start after.');
    const overview = await readLevelsOverview(deps, guild, Number(raw));
    const next = overview.leaderboard.nextCursor;
    const olderHref = next ? `/console/servers/${guild.id}/levels?cursor=${next}` : null;
    sendPage(ctx, LevelsPage({ viewer, guild, overview, olderHref, form }), form?.problem?.status);
  }

  router.get(base, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    await sendLevelsPage(ctx, guild, viewer);
  });

  router.post(`${base}/settings`, async (ctx) => {
    const { guild, viewer, actor } = await managedServer(ctx, deps);
    const form = formOf(ctx);
    await submitOnce(
      ctx,
      deps,
      async () => {
        const change = { guildId: guild.id, ...parseSettings(form), actor };
        await deps.db
          .transaction()
          .execute((trx) => changeLevelSettings(trx, deps.platform, change))
          .catch((err: unknown) => {
            if (!(err instanceof LevelSettingsRefusal)) throw err;
            // The use case's own sentence names the CLI's flag for this one.
            const message = err.code === 'ANNOUNCE_CHANNEL_REQUIRED' ? 'Pick the announcement channel, or another place to announce.' : err.message;
            throw new FormRejection(422, err.code, [{ field: FIELD_OF[err.code], message }]);
          });
        return `/console/servers/${guild.id}/levels`;
      },
      (problem) => sendLevelsPage(ctx, guild, viewer, { values: form, problem }),
    );
  });
}
