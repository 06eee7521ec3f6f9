import type { Kysely } from 'kysely';
import { countDeliveriesByDay, countMemberMovesByDay, sumActivityXpByDay, type DayCount } from '../../db/console/overviewStats.js';
import type { GuildRecord } from '../../db/guild/guilds.js';
import { findPlatformBlock, type PlatformBlock } from '../../db/platform/platformBlocks.js';
import type { Database } from '../../db/schema.js';
import { listAudit, type AuditRecord } from '../../db/shared/audit.js';
import type { Clock } from '../core/clock.js';
import { FEATURE_LABELS, FEATURES, type Feature } from '../core/features.js';
import { PLAN_LIMITS, type PlanLimits } from '../core/plans.js';
import { readBotPermissions } from '../guild/botPermissions.js';
import { featureNeeds, type PermissionNeed } from '../guild/featureNeeds.js';
import type { MemberCache } from '../core/memberCache.js';
import { memberNames } from './memberNames.js';

/** How many days the pictures cover, today (UTC) included. */
export const OVERVIEW_DAYS = 14;
const RECENT_ENTRIES = 8;
const DAY_MS = 86_400_000;

export interface FeatureState {
  feature: Feature;
  label: string;
  on: boolean;
  needs: PermissionNeed[];
}

/** One picture's figures: per day (oldest first), a count for each kind asked for (0 where there was none). */
export interface DailyFigures<K extends string> {
  days: Array<{ day: string; counts: Record<K, number> }>;
}

export interface ServerOverview {
  limits: PlanLimits;
  features: FeatureState[];
  /** What the bot process last recorded of its permissions: known, unknown (never mirrored) or removed from the server. */
  permissions: 'known' | 'unknown' | 'removed';
  /** A stop on every call to Discord (a ban-like 429 or Cloudflare block), while it lasts. */
  block?: PlatformBlock;
  recent: AuditRecord[];
  /** The display names of the recent entries' people (console users, API keys' creators) the platform knows. */
  names: Map<string, string>;
  members: DailyFigures<'joined' | 'left'>;
  xp: DailyFigures<'xp'>;
  deliveries: DailyFigures<'succeeded' | 'failed' | 'pending' | 'cancelled'>;
}

function daily<K extends string>(days: string[], rows: DayCount[], kinds: Record<string, K>): DailyFigures<K> {
  const empty = () => Object.fromEntries(Object.values(kinds).map((k) => [k, 0])) as Record<K, number>;
  const byDay = new Map(days.map((d) => [d, empty()]));
  for (const r of rows) {
    const kind = kinds[r.kind];
    const counts = byDay.get(r.day);
    if (kind && counts) counts[kind] += r.count;
  }
  return { days: days.map((day) => ({ day, counts: byDay.get(day)! })) };
}

/**
 * The console's overview of a server: its plan and features with what each needs of the bot and lacks, the bot's
 * standing, the last audit entries, and per-day figures for the last OVERVIEW_DAYS days (UTC, on the injected clock).
 */
export async function readServerOverview(deps: { db: Kysely<Database>; clock: Clock; memberCache: MemberCache }, guild: GuildRecord): Promise<ServerOverview> {
  const now = deps.clock.now();
  const to = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS);
  const from = new Date(to.getTime() - OVERVIEW_DAYS * DAY_MS);
  const days = Array.from({ length: OVERVIEW_DAYS }, (_, i) => new Date(from.getTime() + i * DAY_MS).toISOString().slice(0, 10));
  const [held, block, recent, moves, xp, deliveries] = await Promise.all([
    readBotPermissions(deps.db, guild.id),
    findPlatformBlock(deps.db, now),
    listAudit(deps.db, guild.id, { limit: RECENT_ENTRIES }),
    countMemberMovesByDay(deps.db, guild.id, from, to),
    sumActivityXpByDay(deps.db, guild.id, from, to),
    countDeliveriesByDay(deps.db, guild.id, from, to),
  ]);
  const names = await memberNames(deps.memberCache, guild.id, recent.flatMap((e) => (e.actorId && e.actorType !== 'operator' ? [e.actorId] : [])));
  const needs = featureNeeds(typeof held === 'bigint' ? held : null);
  return {
    limits: PLAN_LIMITS[guild.plan],
    features: FEATURES.map((feature) => ({ feature, label: FEATURE_LABELS[feature], on: guild.features.includes(feature), needs: needs[feature] })),
    permissions: held === undefined ? 'unknown' : held === null ? 'removed' : 'known',
    block,
    recent,
    names,
    members: daily(days, moves, { 'members.joined': 'joined', 'members.left': 'left' }),
    xp: daily(days, xp, { xp: 'xp' }),
    deliveries: daily(days, deliveries, { succeeded: 'succeeded', failed: 'failed', pending: 'pending', cancelled: 'cancelled' }),
  };
}
