/**
 * One page of a newest-first list with a `before` cursor. It fetches one row more than `limit`: the extra
 * row tells whether another page follows, so a last page that is exactly full gets no cursor.
 */
export async function cursorPage<T>(
  limit: number,
  fetch: (limit: number) => Promise<T[]>,
  cursorOf: (last: T) => number,
): Promise<{ items: T[]; nextCursor: string | null }> {
  const rows = await fetch(limit + 1);
  const items = rows.slice(0, limit);
  return { items, nextCursor: rows.length > limit ? String(cursorOf(items.at(-1)!)) : null };
}

/**
 * The latest page of a conversation or a timeline, in reading order. The first page holds the newest entries, since
 * they are what a reader comes for (the appellant's last reply before a decision, a case's last change), and each
 * page reads oldest first like a conversation; `nextCursor` leads to the entries before the page.
 */
export async function latestPage<T>(limit: number, fetch: (limit: number) => Promise<T[]>, cursorOf: (oldest: T) => number) {
  const page = await cursorPage(limit, fetch, cursorOf);
  return { items: page.items.reverse(), nextCursor: page.nextCursor };
}
