import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { z } from 'zod';

const SettingsSchema = z.object({
  namespace: z.string().default('default'),
  ip: z.string().default('127.0.0.1'),
  port: z.number().int().default(7233),
  uiPort: z.number().int().default(8233),
  dbFilename: z.string().optional(),
  searchAttributes: z.record(z.string(), z.enum(['Keyword', 'Text', 'Int', 'Double', 'Bool', 'Datetime', 'KeywordList'])),
  sqlitePragmas: z.record(z.string(), z.string()).default({}),
  dynamicConfig: z.record(z.string(), z.unknown()).default({}),
});

export type TemporalDevSettings = z.infer<typeof SettingsSchema>;

/** Reads temporal-dev.yml, the one place the local Temporal server's settings are written down. */
export async function readTemporalDevSettings(path: string): Promise<TemporalDevSettings> {
  return SettingsSchema.parse(parse(await readFile(path, 'utf8')));
}
