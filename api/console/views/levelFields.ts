import type { LevelSettingName } from '../../../src/levels/levelRules.js';

/** The levels forms' input ids (the error summary links to them). */
export const LEVEL_FIELDS = {
  announceTo: 'announce-to',
  channel: 'announce-channel',
  message: 'announce-message',
  xpPerMessage: 'xp-per-message',
  xpPerVoiceMinute: 'xp-per-voice-minute',
  cooldown: 'message-cooldown',
  stacking: 'reward-stacking',
  noXpRoles: 'no-xp-roles',
  noXpChannel: 'no-xp-channel',
  rewardLevel: 'reward-level',
  rewardRole: 'reward-role',
} as const;

/** The field showing a refusal of the levels use cases, by the setting it concerns. */
export const SETTING_FIELD: Record<LevelSettingName, string> = {
  announceTo: LEVEL_FIELDS.announceTo,
  announceChannelId: LEVEL_FIELDS.channel,
  announceTemplate: LEVEL_FIELDS.message,
  xpPerMessage: LEVEL_FIELDS.xpPerMessage,
  xpPerVoiceMinute: LEVEL_FIELDS.xpPerVoiceMinute,
  messageCooldownSeconds: LEVEL_FIELDS.cooldown,
  removePreviousRewards: LEVEL_FIELDS.stacking,
  noXpRoleIds: LEVEL_FIELDS.noXpRoles,
  noXpChannelIds: LEVEL_FIELDS.noXpChannel,
  rewardLevel: LEVEL_FIELDS.rewardLevel,
  rewardRole: LEVEL_FIELDS.rewardRole,
};

/** The levels page's forms, so only the one that came back shows what was sent. */
export type LevelForm = 'announcement' | 'rules' | 'noXpChannel' | 'reward';
