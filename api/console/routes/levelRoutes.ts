import type { LevelAnnounceTarget } from '../../../db/levels/members.js';
import { changeLevelSettings } from '../../../src/levels/changeLevelSettings.js';
import type { AppDeps } from '../../context.js';
import { managedServer } from '../consoleDeps.js';
import type { ConsoleRouter } from '../consoleState.js';
import { FormRejection } from '../formFlow.js';
import { LEVEL_FIELDS } from '../views/levelFields.js';
import { levelRuleRoutes } from './levelRuleRoutes.js';
import { levelsChange, levelsForm, sendLevelsPage } from './levelsPageSend.js';
import { levelXpRoutes } from './levelXpRoutes.js';

const TARGETS: readonly LevelAnnounceTarget[] = ['channel', 'current', 'dm', 'off'];
const isTarget = (v: string): v is LevelAnnounceTarget => (TARGETS as readonly string[]).includes(v);

/** The settings form's input: every field is sent, so each is a change (the use case skips what is as it was). */
function parseSettings(form: URLSearchParams) {
  const announceTo = form.get('announceTo') ?? '';
  if (!isTarget(announceTo)) throw new FormRejection(400, 'INVALID_INPUT', [{ field: LEVEL_FIELDS.announceTo, message: 'Choose where level-ups are announced.' }]);
  const channel = form.get(LEVEL_FIELDS.channel) ?? '';
  return { announceTo, announceChannelId: channel === '' ? null : channel, announceTemplate: form.get(LEVEL_FIELDS.message) ?? '' };
}

/**
 * Levels: the announcement settings (the admin CLI's `levels settings`, src/levels/changeLevelSettings.ts) and the
 * leaderboard (the API's reader), paged by rank; the XP rules and reward roles (levelRuleRoutes) and a member's XP
 * change (levelXpRoutes) on pages of their own modules.
 */
export function levelRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const base = '/servers/:guildId/levels';

  router.get(base, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    await sendLevelsPage(ctx, deps, guild, viewer);
  });

  levelsForm(router, deps, `${base}/settings`, 'announcement', (form, guildId, actor) => {
    const change = { guildId, ...parseSettings(form), actor };
    // The use case's own sentence for a missing channel names the CLI's flag.
    return levelsChange(
      deps,
      (trx) => changeLevelSettings(trx, deps.platform, change),
      (err) => (err.code === 'ANNOUNCE_CHANNEL_REQUIRED' ? 'Pick the announcement channel, or another place to announce.' : err.message),
    );
  });

  levelRuleRoutes(router, deps, base);
  levelXpRoutes(router, deps, base);
}
