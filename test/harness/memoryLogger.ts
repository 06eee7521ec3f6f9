import { pino } from 'pino';
import type { Logger } from '../../src/core/logger.js';

/** A pino logger writing parsed lines into memory, so a test can read what a process would have logged. */
export function memoryLogger(): { logger: Logger; lines: Array<Record<string, unknown> & { msg: string }> } {
  const lines: Array<Record<string, unknown> & { msg: string }> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown> & { msg: string }) });
  return { logger, lines };
}
