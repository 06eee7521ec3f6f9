import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/core/config.js';

// The bot's settings: its probe port and which shards a bot process runs.

describe('bot settings', () => {
  it('default to port 3002, the recommended shard count, every shard and zlib-stream compression', () => {
    expect(loadConfig({}).bot).toEqual({ port: 3002, shardCount: undefined, shardIds: undefined, compression: 'zlib-stream' });
    expect(loadConfig({ DISCORD_GATEWAY_COMPRESSION: 'none' }).bot.compression).toBe('none');
  });

  it('take a shard count and a range or a list of shard ids', () => {
    expect(loadConfig({ BOT_PORT: '4002', DISCORD_SHARD_COUNT: '8', DISCORD_SHARD_IDS: '4-7' }).bot).toEqual({ port: 4002, shardCount: 8, shardIds: { start: 4, end: 7 }, compression: 'zlib-stream' });
    expect(loadConfig({ DISCORD_SHARD_COUNT: '6', DISCORD_SHARD_IDS: '0,2,5' }).bot.shardIds).toEqual([0, 2, 5]);
  });

  // A StatefulSet's pods differ only by the ordinal ending their name (docs/deployment.md, Kubernetes).
  it("take the range a StatefulSet pod's ordinal gives with DISCORD_SHARDS_PER_POD, the last pod's clipped at the count", () => {
    const pod = (name: string) => loadConfig({ DISCORD_SHARD_COUNT: '10', DISCORD_SHARDS_PER_POD: '4', BOT_POD_NAME: name }).bot.shardIds;
    expect(pod('community-bot-bot-0')).toEqual({ start: 0, end: 3 });
    expect(pod('community-bot-bot-1')).toEqual({ start: 4, end: 7 });
    expect(pod('community-bot-bot-2')).toEqual({ start: 8, end: 9 });
    expect(loadConfig({ DISCORD_SHARD_COUNT: '16', DISCORD_SHARDS_PER_POD: '16', BOT_POD_NAME: 'bot-0' }).bot.shardIds).toEqual({ start: 0, end: 15 });
  });

  it.each([
    [{ DISCORD_SHARD_COUNT: '8', DISCORD_SHARDS_PER_POD: '4', BOT_POD_NAME: 'bot-2' }, 'BOT_POD_NAME: ordinal 2 would start at shard 8, past DISCORD_SHARD_COUNT (8): run 2 bot pods (DISCORD_SHARD_COUNT / DISCORD_SHARDS_PER_POD, rounded up)'],
    [{ DISCORD_SHARD_COUNT: '8', DISCORD_SHARDS_PER_POD: '4', BOT_POD_NAME: 'bot' }, "BOT_POD_NAME: must end in the pod's ordinal, as a StatefulSet names its pods (bot-0, bot-1 ...)"],
    [{ DISCORD_SHARD_COUNT: '8', DISCORD_SHARDS_PER_POD: '4' }, "DISCORD_SHARDS_PER_POD: needs BOT_POD_NAME (the pod's name, from the downward API's metadata.name)"],
    [{ DISCORD_SHARDS_PER_POD: '4', BOT_POD_NAME: 'bot-0' }, 'DISCORD_SHARDS_PER_POD: needs DISCORD_SHARD_COUNT (the same total on every bot process)'],
    [{ DISCORD_SHARD_COUNT: '8', DISCORD_SHARDS_PER_POD: '4', DISCORD_SHARD_IDS: '0-3', BOT_POD_NAME: 'bot-0' }, 'DISCORD_SHARDS_PER_POD: must not be set together with DISCORD_SHARD_IDS (set one of the two)'],
    [{ DISCORD_SHARD_COUNT: '8', DISCORD_SHARDS_PER_POD: '0', BOT_POD_NAME: 'bot-0' }, 'DISCORD_SHARDS_PER_POD: Too small: expected number to be >=1'],
    [{ DISCORD_SHARD_COUNT: '4', DISCORD_SHARD_IDS: '0-' }, 'DISCORD_SHARD_IDS: must be a range such as 0-3 or a list such as 0,2,5'],
    [{ DISCORD_SHARD_COUNT: '4', DISCORD_SHARD_IDS: 'all' }, 'DISCORD_SHARD_IDS: must be a range such as 0-3 or a list such as 0,2,5'],
    [{ DISCORD_SHARD_COUNT: '4', DISCORD_SHARD_IDS: '3-1' }, 'DISCORD_SHARD_IDS: must be a range whose first shard is not after its last'],
    [{ DISCORD_SHARD_IDS: '0-3' }, 'DISCORD_SHARD_IDS: needs DISCORD_SHARD_COUNT (the same total on every bot process)'],
    [{ DISCORD_SHARD_IDS: '0,2,5' }, 'DISCORD_SHARD_IDS: needs DISCORD_SHARD_COUNT (the same total on every bot process)'],
    [{ DISCORD_SHARD_COUNT: '4', DISCORD_SHARD_IDS: '2-4' }, 'DISCORD_SHARD_IDS: must name shards below DISCORD_SHARD_COUNT (4); shard ids start at 0'],
    [{ DISCORD_SHARD_COUNT: '4', DISCORD_SHARD_IDS: '1,4' }, 'DISCORD_SHARD_IDS: must name shards below DISCORD_SHARD_COUNT (4); shard ids start at 0'],
    [{ DISCORD_SHARD_COUNT: '0' }, 'DISCORD_SHARD_COUNT: Too small: expected number to be >=1'],
    [{ BOT_PORT: '70000' }, 'BOT_PORT: Too big: expected number to be <=65535'],
    [{ DISCORD_GATEWAY_COMPRESSION: 'zlib' }, 'DISCORD_GATEWAY_COMPRESSION: Invalid option: expected one of "zlib-stream"|"none"'],
  ])('%o stops start-up with one line naming the setting', (env, line) => {
    expect(() => loadConfig(env)).toThrow(new Error(`Invalid configuration:\n  ${line}`));
  });
});
