import { clampXp } from './curve.js';

/** XP a counted message earns where the server did not set its own (docs/api-decisions.md, Levels). */
export const XP_PER_MESSAGE = 20;
/** XP a minute in a voice channel earns where the server did not set its own. */
export const XP_PER_VOICE_MINUTE = 10;
/** The most messages or voice minutes one report of activity may carry. */
export const MAX_ACTIVITY_PER_REPORT = 100_000;

export interface Activity {
  messages: number;
  voiceMinutes: number;
}

/** A server's XP rates (its levels settings). */
export interface XpRates {
  xpPerMessage: number;
  xpPerVoiceMinute: number;
}

export const DEFAULT_XP_RATES: XpRates = { xpPerMessage: XP_PER_MESSAGE, xpPerVoiceMinute: XP_PER_VOICE_MINUTE };

/** XP earned by some activity: the server's amount per counted message and per voice minute. */
export const xpForActivity = (a: Activity, rates: XpRates = DEFAULT_XP_RATES): number => a.messages * rates.xpPerMessage + a.voiceMinutes * rates.xpPerVoiceMinute;

/** The member's XP after the activity, inside the curve's bounds. */
export const xpAfterActivity = (currentXp: number, a: Activity, rates: XpRates = DEFAULT_XP_RATES): number => clampXp(currentXp + xpForActivity(a, rates));
