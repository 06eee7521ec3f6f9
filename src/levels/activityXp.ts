import { clampXp } from './curve.js';

/** XP a counted message earns (docs/api-decisions.md, Levels). */
export const XP_PER_MESSAGE = 20;
/** XP a minute in a voice channel earns. */
export const XP_PER_VOICE_MINUTE = 10;
/** The most messages or voice minutes one report of activity may carry. */
export const MAX_ACTIVITY_PER_REPORT = 100_000;

export interface Activity {
  messages: number;
  voiceMinutes: number;
}

/** XP earned by some activity: a fixed amount per counted message and per voice minute. */
export const xpForActivity = (a: Activity): number => a.messages * XP_PER_MESSAGE + a.voiceMinutes * XP_PER_VOICE_MINUTE;

/** The member's XP after the activity, inside the curve's bounds. */
export const xpAfterActivity = (currentXp: number, a: Activity): number => clampXp(currentXp + xpForActivity(a));
