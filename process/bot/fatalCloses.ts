import { GatewayCloseCodes } from 'discord-api-types/v10';

// Close codes after which Discord will not take the connection again as it is: @discordjs/ws leaves the shard idle
// without reconnecting, so a bot that did not end would look alive (/livez) and do nothing. Each gets one line
// saying what the operator changes before restarting.

export const DISALLOWED_INTENTS_MESSAGE =
  'Discord refused the intents (close code 4014): enable the Server Members and Message Content privileged intents for this bot in the Developer Portal (Bot page), then restart.';

/** `recommended`: the shard count GET /gateway/bot gives now, null when it could not be read. */
export const SHARDING_REQUIRED_MESSAGE = (current: number, recommended: number | null) =>
  `Discord requires more shards (close code 4011, sharding required): this bot runs ${current} and Discord now recommends ${recommended ?? 'more (GET /gateway/bot could not be read)'}; set DISCORD_SHARD_COUNT${recommended === null ? '' : `=${recommended}`} on every bot process (or unset it to follow Discord) and restart.`;

const FIXED_LINES: Readonly<Record<number, string>> = {
  [GatewayCloseCodes.AuthenticationFailed]:
    'Discord refused the bot token on the gateway (close code 4004, authentication failed): the token was reset or revoked; set DISCORD_TOKEN to the current bot token from the Developer Portal and restart.',
  [GatewayCloseCodes.InvalidShard]:
    'Discord refused the shard (close code 4010, invalid shard): DISCORD_SHARD_IDS must name shards below DISCORD_SHARD_COUNT, the same count on every bot process; fix them and restart.',
  [GatewayCloseCodes.InvalidAPIVersion]: 'Discord refused the gateway version (close code 4012, invalid API version): this bot speaks gateway v10; update the bot and restart.',
  [GatewayCloseCodes.InvalidIntents]: 'Discord refused the intents (close code 4013, invalid intents): the intents this bot identifies with are not valid; update the bot and restart.',
  [GatewayCloseCodes.DisallowedIntents]: DISALLOWED_INTENTS_MESSAGE,
};

/** The close codes that end the bot (exit 1). */
export const FATAL_CLOSE_CODES: readonly number[] = [...Object.keys(FIXED_LINES).map(Number), GatewayCloseCodes.ShardingRequired].sort((a, b) => a - b);

/**
 * The one line to end with for a fatal close code, null for any other. 4011 names the shard count Discord asks for:
 * `recommendedShards` reads it (GET /gateway/bot) only then.
 */
export async function fatalCloseLine(code: number, shardCount: number, recommendedShards: () => Promise<number>): Promise<string | null> {
  if (code === GatewayCloseCodes.ShardingRequired) return SHARDING_REQUIRED_MESSAGE(shardCount, await recommendedShards().catch(() => null));
  return FIXED_LINES[code] ?? null;
}
