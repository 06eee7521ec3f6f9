import type { LevelSettings } from '../../db/levels/members.js';
import { changeLevelSettings } from '../../src/levels/changeLevelSettings.js';
import { LEVEL_UP_PLACEHOLDERS } from '../../src/levels/levelUpMessage.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { LEVEL_LIMITS } from '../../src/levels/levelRules.js';
import { oneOf, optional, snowflake, wholeNumber } from './args.js';
import { defineCommand, GUILD_FLAG, OPERATOR_FLAG, operatorActor, type CommandGroup } from './command.js';
import { requireGuild } from './requireGuild.js';

// A server's level settings: where level-ups are announced and what they say, XP rates, cooldown and whether reward
// roles stack (the no-XP channels and roles and the reward roles are set in the console). The spec has no levels settings
// endpoint, so the CLI (and the console, by its issue) is where staff set them.

const TARGETS = ['channel', 'current', 'dm', 'off'] as const;

const L = LEVEL_LIMITS;
const RATE_FLAGS = { 'xp-per-message': 'xpPerMessage', 'xp-per-voice-minute': 'xpPerVoiceMinute', cooldown: 'messageCooldownSeconds' } as const;

const view = (guildId: string, s: LevelSettings) => ({ guildId, ...s });

const where = (s: LevelSettings) =>
  s.announceTo === 'channel' ? `in channel ${s.announceChannelId}` : s.announceTo === 'current' ? "in the member's current channel" : s.announceTo === 'dm' ? 'by DM' : 'off';

export const levelGroup: CommandGroup = {
  name: 'levels',
  summary: "a server's level settings",
  commands: [
    defineCommand({
      name: 'settings',
      summary: 'show or change where level-ups are announced and their message, XP rates, cooldown, reward stacking; without a change, shows them',
      flags: {
        ...GUILD_FLAG,
        'announce-to': {
          type: 'string',
          placeholder: TARGETS.join('|'),
          help: "channel: the announcement channel; current: where the member wrote; dm: the member's DMs; off",
        },
        'announce-channel': { type: 'string', placeholder: 'ID|none', help: 'the announcement channel (giving one announces there unless --announce-to says otherwise)' },
        message: { type: 'string', placeholder: 'TEXT', help: `the announcement, 1 to 1000 characters, with ${LEVEL_UP_PLACEHOLDERS.join(' and ')}` },
        'xp-per-message': { type: 'string', placeholder: 'N', help: `XP a counted message earns, ${L.xpPerMessage.min} to ${L.xpPerMessage.max}` },
        'xp-per-voice-minute': { type: 'string', placeholder: 'N', help: `XP a voice minute earns, ${L.xpPerVoiceMinute.min} to ${L.xpPerVoiceMinute.max}` },
        cooldown: { type: 'string', placeholder: 'SECONDS', help: `least time between a member's XP-earning messages, ${L.messageCooldownSeconds.min} to ${L.messageCooldownSeconds.max}` },
        rewards: { type: 'string', placeholder: 'stack|replace', help: 'reward roles stack, or a member keeps only the highest reached' },
        ...OPERATOR_FLAG,
      },
      async run(flags, ctx) {
        const guildId = snowflake(flags.guild, 'guild');
        const announceTo = optional(flags['announce-to'], (v) => oneOf(v, 'announce-to', TARGETS));
        const announceChannelId = optional(flags['announce-channel'], (v) => (v === 'none' ? null : snowflake(v, 'announce-channel')));
        await requireGuild(ctx.db, guildId);
        const platform = ctx.platform ?? createLocalPlatform(ctx.db);
        const number = (flag: keyof typeof RATE_FLAGS) => optional(flags[flag], (v) => wholeNumber(v, flag, L[RATE_FLAGS[flag]].min, L[RATE_FLAGS[flag]].max));
        const rewards = optional(flags.rewards, (v) => oneOf(v, 'rewards', ['stack', 'replace'] as const));
        const change = {
          guildId,
          announceTo,
          announceChannelId,
          announceTemplate: flags.message,
          xpPerMessage: number('xp-per-message'),
          xpPerVoiceMinute: number('xp-per-voice-minute'),
          messageCooldownSeconds: number('cooldown'),
          removePreviousRewards: rewards === undefined ? undefined : rewards === 'replace',
          actor: operatorActor(ctx, flags.operator),
        };
        const settings = await ctx.db.transaction().execute((trx) => changeLevelSettings(trx, platform, change));
        return {
          json: view(guildId, settings),
          text: [
            `Level settings of guild ${guildId}: level-ups announced ${where(settings)}, message "${settings.announceTemplate}".`,
            `${settings.xpPerMessage} XP a message (at most once every ${settings.messageCooldownSeconds} s), ${settings.xpPerVoiceMinute} XP a voice minute; reward roles ${settings.removePreviousRewards ? 'replace each other' : 'stack'}.`,
          ],
        };
      },
    }),
  ],
};
