/** Items written by one statement at most: bounds the statement's parameters and a group's wait. */
const MAX_GROUP_ITEMS = 500;

interface Pending<T, R> {
  item: T;
  resolve(result: R): void;
  reject(err: unknown): void;
}

/**
 * Group commit for one kind of write: concurrent callers' items go to the database together in one
 * statement. The first item of an idle group leaves at the end of the current tick (with whatever else was
 * asked for in it), so a lone write waits for nothing; the items asked for while a statement runs leave
 * together in the next one, so under load one statement carries many items and the statements per item
 * fall with the load. `write` answers one result per item, in order; when it fails, every item of its
 * statement fails with its error.
 */
export function groupedWrites<T, R>(write: (items: T[]) => Promise<R[]>): (item: T) => Promise<R> {
  const queue: Array<Pending<T, R>> = [];
  let running = false;

  async function drain(): Promise<void> {
    while (queue.length > 0) {
      const group = queue.splice(0, MAX_GROUP_ITEMS);
      try {
        const results = await write(group.map((p) => p.item));
        group.forEach((p, i) => p.resolve(results[i]!));
      } catch (err) {
        for (const p of group) p.reject(err);
      }
    }
    running = false;
  }

  return (item) =>
    new Promise<R>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (running) return;
      running = true;
      queueMicrotask(() => void drain());
    });
}
