/** Where a command writes; tests pass collectors instead of the process streams. */
export interface AdminIo {
  out(line: string): void;
  err(line: string): void;
}

/** A refusal an operator can act on: one line, exit code 1 (2 for wrong usage). */
export class AdminError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
    this.name = 'AdminError';
  }
}

/** Turns the domain's refusals (GuildManagementError, KeyManagementError) into operator errors. */
export function asAdminError(err: unknown): never {
  if (err instanceof Error && err.name.endsWith('ManagementError') && 'code' in err && typeof err.code === 'string') {
    throw new AdminError(err.code, err.message);
  }
  throw err;
}

export const usageError = (message: string) => new AdminError('USAGE', message, 2);

/** Prints a result as JSON or as aligned `key  value` lines. */
export function print(io: AdminIo, json: boolean, value: unknown, text: () => string[]): void {
  if (json) io.out(JSON.stringify(value, null, 2));
  else text().forEach((line) => io.out(line));
}

export function table(rows: string[][]): string[] {
  if (rows.length === 0) return [];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd());
}
