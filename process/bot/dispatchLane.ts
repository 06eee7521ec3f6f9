// Which lane of the dispatch queue a dispatch waits in: its server's, so a server's events keep their order.

/** Events whose payload is the server itself: its id is `id`, not `guild_id`. */
const SERVER_EVENTS = new Set(['GUILD_CREATE', 'GUILD_UPDATE', 'GUILD_DELETE']);

/**
 * The lane key of a dispatch: its server's id; an interaction gets a lane of its own (Discord wants its answer
 * within 3 s, so it must not wait behind its server's events, nor behind an outage they wait on); '' for events of
 * no server (READY, direct messages).
 */
export function dispatchLane(t: string, d: unknown): string {
  const payload = (d ?? {}) as { id?: unknown; guild_id?: unknown };
  if (t === 'INTERACTION_CREATE' && typeof payload.id === 'string') return `interaction:${payload.id}`;
  const id = SERVER_EVENTS.has(t) ? payload.id : payload.guild_id;
  return typeof id === 'string' ? id : '';
}
