import { SimpleShardingStrategy, type WebSocketManager } from '@discordjs/ws';

/** Stops and restarts reading from every shard's gateway connection of this process. */
export interface GatewayFlowControl {
  /** The manager's `buildStrategy` option: keeps hold of the strategy whose shards it pauses. */
  buildStrategy(manager: WebSocketManager): SimpleShardingStrategy;
  setPaused(paused: boolean): void;
}

// @discordjs/ws 2.0 has no flow control of its own: its shards read every frame as it arrives. The only way to
// stop reading is the shard's `ws` socket (`connection`, private in its types; the version is pinned). A paused
// socket leaves Discord's frames in TCP buffers; if it stays paused past a heartbeat, the library sees no ACK,
// drops the connection and resumes, and Discord replays from the last sequence handled, so nothing is lost. The
// new connection is paused at its next dispatch while the queue is still full.
interface PausableShard {
  connection: { pause?: () => void; resume?: () => void } | null;
}

export function gatewayFlowControl(): GatewayFlowControl {
  let strategy: SimpleShardingStrategy | null = null;
  const shards = () => [...((strategy as unknown as { shards: Map<number, PausableShard> } | null)?.shards.values() ?? [])];
  return {
    buildStrategy(manager) {
      strategy = new SimpleShardingStrategy(manager);
      return strategy;
    },
    setPaused(paused) {
      for (const shard of shards()) {
        if (paused) shard.connection?.pause?.();
        else shard.connection?.resume?.();
      }
    },
  };
}
