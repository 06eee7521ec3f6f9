/**
 * Runs `each` over `items` with at most `limit` calls in flight: `limit` lanes each take the next item as soon as
 * their last one settles, so one slow item holds up one lane, not a whole chunk. Rejects with the first error
 * (the other lanes finish the items they hold and go on taking items, as Promise.all leaves them running).
 */
export async function inParallel<T>(items: T[], limit: number, each: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await each(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
