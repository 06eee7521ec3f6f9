import { createLogger, type Logger } from '../../src/core/logger.js';

export type LogLine = Record<string, unknown> & { level: number; msg: string };

export interface CapturedLogs {
  logger: Logger;
  /** Every line written so far, parsed, oldest first. */
  lines: LogLine[];
  /** The lines whose message contains `text`. */
  matching(text: string): LogLine[];
}

/** The service's own logger (its redaction included) writing into memory, so a test can read what was logged. */
export function captureLogs(level = 'info'): CapturedLogs {
  const lines: LogLine[] = [];
  const logger = createLogger(level, 'captured', { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  return { logger, lines, matching: (text) => lines.filter((l) => l.msg.includes(text)) };
}

/** pino's numeric levels. */
export const LEVEL = { info: 30, warn: 40, error: 50 } as const;
