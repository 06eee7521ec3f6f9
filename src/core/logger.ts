import { pino, type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs; the redact list keeps secrets out even when a header object is logged whole. */
export function createLogger(level: string, name: string): Logger {
  return pino({
    name,
    level,
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', 'apiKey', 'secret', '*.apiKey', '*.secret'],
      censor: '[redacted]',
    },
  });
}
