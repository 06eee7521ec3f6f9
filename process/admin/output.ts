/** Left-aligned columns separated by two spaces; the first row is the header. */
export function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd());
}

export const isoOrNull = (date: Date | null) => date?.toISOString() ?? null;

/** Lists every name, or `all` when the list is the whole set (21 scopes do not fit a table cell). */
export const listOrAll = (names: readonly string[], everything: readonly string[]) =>
  names.length === everything.length && everything.every((n) => names.includes(n)) ? 'all' : names.join(',') || '-';
