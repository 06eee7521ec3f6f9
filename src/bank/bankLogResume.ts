/**
 * The lines of a batch's bank log still to post, given the heartbeat of an earlier try: the id of the last line it
 * posted. Without one (a first try, or one that died before its first line), or with an id not among the events
 * (a heartbeat from some other code), every line: posting a line twice is a no-op, skipping one is a loss.
 */
export function linesAfter<T extends { id: string }>(events: T[], lastPosted: unknown): T[] {
  const at = typeof lastPosted === 'string' ? events.findIndex((e) => e.id === lastPosted) : -1;
  return events.slice(at + 1);
}
