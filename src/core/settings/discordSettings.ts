import { z } from 'zod';

const DISCORD_TOKEN_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** The environment variables of the bot side: where effects land, the bot's token and its shards. */
export const discordEnv = {
  /** Where bot-side effects land: `local` (platform_* tables) or `discord` (Discord's REST API). */
  PLATFORM: z.enum(['local', 'discord']).default('local'),
  /** The bot's token (a secret: never logged, never echoed in a validation message). */
  DISCORD_TOKEN: z.string().optional(),
  /** Discord's API root without the version; requests go to `${DISCORD_API_URL}/v10/...` (a local fake in tests). */
  DISCORD_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://discord.com/api' }).default('https://discord.com/api'),
  /** The Discord egress's port (`npm run discord-proxy`): Discord's REST API under /api, and /livez, /readyz, /metrics. */
  DISCORD_EGRESS_PORT: z.coerce.number().int().min(0).max(65535).default(3004),
  /** Where the egress sends (Discord's API root without the version); the other processes' DISCORD_API_URL points at the egress. */
  DISCORD_UPSTREAM_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://discord.com/api' }).default('https://discord.com/api'),
  /** The bot's own HTTP port: /livez, /readyz (its shards' state), /metrics (on HOST). */
  BOT_PORT: z.coerce.number().int().min(0).max(65535).default(3002),
  /** Shards of the whole bot (every bot process alike); unset: the count Discord recommends (GET /gateway/bot). */
  DISCORD_SHARD_COUNT: z.coerce.number().int().min(1).max(100_000).optional(),
  /** The shards this bot process runs: `first-last` (`0-3`) or a list (`0,2,5`); unset: all of them. Needs DISCORD_SHARD_COUNT. */
  DISCORD_SHARD_IDS: z
    .string()
    .regex(/^(\d+-\d+|\d+(,\d+)*)$/, 'must be a range such as 0-3 or a list such as 0,2,5')
    .optional(),
  /**
   * Instead of DISCORD_SHARD_IDS, for bots run as a Kubernetes StatefulSet: each pod runs this many shards, the range
   * its ordinal gives (pod `bot-2` with 4: shards 8-11; the last pod may have fewer). Needs DISCORD_SHARD_COUNT and
   * BOT_POD_NAME.
   */
  DISCORD_SHARDS_PER_POD: z.coerce.number().int().min(1).max(100_000).optional(),
  /**
   * Transport compression of the bot's gateway connections: `zlib-stream` (Discord's: a twelfth of the bytes in the
   * gateway-ingest bench; the bot inflates every payload) or `none` (plain JSON: less CPU per dispatch, more bandwidth).
   */
  DISCORD_GATEWAY_COMPRESSION: z.enum(['zlib-stream', 'none']).default('zlib-stream'),
  /** The bot pod's name, whose `-<ordinal>` ending picks its shards with DISCORD_SHARDS_PER_POD (downward API: metadata.name). */
  BOT_POD_NAME: z.string().optional(),
};

type DiscordEnv = z.infer<z.ZodObject<typeof discordEnv>>;

/** A bot process's shards: a range (both ends included) or a list. */
export type ShardIds = Readonly<{ start: number; end: number }> | readonly number[];

export type PlatformSettings = Readonly<{ kind: 'local' } | { kind: 'discord'; token: string; apiUrl: string }>;
export type BotSettings = Readonly<{ port: number; shardCount?: number; shardIds?: ShardIds; compression: 'zlib-stream' | 'none' }>;
export type EgressSettings = Readonly<{ port: number; upstreamUrl: string }>;

function shardIdsOf(value: string): ShardIds {
  const range = /^(\d+)-(\d+)$/.exec(value);
  return range ? { start: Number(range[1]), end: Number(range[2]) } : value.split(',').map(Number);
}

/** A StatefulSet pod's ordinal: the number its name ends in (`bot-3`: 3). */
const ordinalOf = (podName: string | undefined) => {
  const match = podName === undefined ? null : /-(\d+)$/.exec(podName);
  return match ? Number(match[1]) : undefined;
};

/** The range the pod's ordinal gives, clipped at the last shard (undefined when the settings do not make one). */
function podShardsOf(e: DiscordEnv): { start: number; end: number } | undefined {
  const ordinal = ordinalOf(e.BOT_POD_NAME);
  if (e.DISCORD_SHARDS_PER_POD === undefined || e.DISCORD_SHARD_COUNT === undefined || ordinal === undefined) return undefined;
  const start = ordinal * e.DISCORD_SHARDS_PER_POD;
  return { start, end: Math.min(start + e.DISCORD_SHARDS_PER_POD, e.DISCORD_SHARD_COUNT) - 1 };
}

function checkPodShards(e: DiscordEnv, ctx: z.RefinementCtx): void {
  const perPod = e.DISCORD_SHARDS_PER_POD;
  if (perPod === undefined) return;
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  if (e.DISCORD_SHARD_IDS !== undefined) issue('DISCORD_SHARDS_PER_POD', 'must not be set together with DISCORD_SHARD_IDS (set one of the two)');
  if (e.DISCORD_SHARD_COUNT === undefined) issue('DISCORD_SHARDS_PER_POD', 'needs DISCORD_SHARD_COUNT (the same total on every bot process)');
  if (e.BOT_POD_NAME === undefined) issue('DISCORD_SHARDS_PER_POD', "needs BOT_POD_NAME (the pod's name, from the downward API's metadata.name)");
  else if (ordinalOf(e.BOT_POD_NAME) === undefined) issue('BOT_POD_NAME', "must end in the pod's ordinal, as a StatefulSet names its pods (bot-0, bot-1 ...)");
  const shards = podShardsOf(e);
  // A StatefulSet scaled past the shards would run pods with nothing to do, or two processes believing they cover
  // the bot: stop at start with what to change instead.
  if (shards && e.DISCORD_SHARD_COUNT !== undefined && shards.start >= e.DISCORD_SHARD_COUNT) {
    const pods = Math.ceil(e.DISCORD_SHARD_COUNT / perPod);
    issue('BOT_POD_NAME', `ordinal ${ordinalOf(e.BOT_POD_NAME)} would start at shard ${shards.start}, past DISCORD_SHARD_COUNT (${e.DISCORD_SHARD_COUNT}): run ${pods} bot pods (DISCORD_SHARD_COUNT / DISCORD_SHARDS_PER_POD, rounded up)`);
  }
}

export function checkDiscordEnv(e: DiscordEnv, ctx: z.RefinementCtx): void {
  if (e.PLATFORM === 'discord') {
    // A bot token is three dot-separated base64url parts; the message never repeats what was given.
    if (!e.DISCORD_TOKEN) ctx.addIssue({ code: 'custom', path: ['DISCORD_TOKEN'], message: 'must be set with PLATFORM=discord (the bot token from the Developer Portal)' });
    else if (!DISCORD_TOKEN_SHAPE.test(e.DISCORD_TOKEN)) {
      ctx.addIssue({ code: 'custom', path: ['DISCORD_TOKEN'], message: 'is not a bot token (three dot-separated parts, without the "Bot " prefix)' });
    }
  }
  const shards = e.DISCORD_SHARD_IDS === undefined ? undefined : shardIdsOf(e.DISCORD_SHARD_IDS);
  // Without the count each process would take Discord's recommendation when it starts, and two processes started
  // on either side of a change would split the servers differently: some shards run twice, others never.
  if (shards && e.DISCORD_SHARD_COUNT === undefined) {
    ctx.addIssue({ code: 'custom', path: ['DISCORD_SHARD_IDS'], message: 'needs DISCORD_SHARD_COUNT (the same total on every bot process)' });
  }
  if (shards && 'start' in shards && shards.start > shards.end) ctx.addIssue({ code: 'custom', path: ['DISCORD_SHARD_IDS'], message: 'must be a range whose first shard is not after its last' });
  const highest = shards === undefined ? undefined : 'end' in shards ? shards.end : Math.max(...shards);
  if (highest !== undefined && e.DISCORD_SHARD_COUNT !== undefined && highest >= e.DISCORD_SHARD_COUNT) {
    ctx.addIssue({ code: 'custom', path: ['DISCORD_SHARD_IDS'], message: `must name shards below DISCORD_SHARD_COUNT (${e.DISCORD_SHARD_COUNT}); shard ids start at 0` });
  }
  checkPodShards(e, ctx);
}

export function platformSettingsOf(e: DiscordEnv): PlatformSettings {
  return Object.freeze(
    e.PLATFORM === 'discord' ? { kind: 'discord' as const, token: e.DISCORD_TOKEN!, apiUrl: e.DISCORD_API_URL.replace(/\/+$/, '') } : { kind: 'local' as const },
  );
}

export function botSettingsOf(e: DiscordEnv): BotSettings {
  return Object.freeze({
    port: e.BOT_PORT,
    shardCount: e.DISCORD_SHARD_COUNT,
    shardIds: e.DISCORD_SHARD_IDS === undefined ? podShardsOf(e) : shardIdsOf(e.DISCORD_SHARD_IDS),
    compression: e.DISCORD_GATEWAY_COMPRESSION,
  });
}

export function egressSettingsOf(e: DiscordEnv): EgressSettings {
  return Object.freeze({ port: e.DISCORD_EGRESS_PORT, upstreamUrl: e.DISCORD_UPSTREAM_URL.replace(/\/+$/, '') });
}
