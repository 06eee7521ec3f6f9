import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const read = (path: string) => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8');

// The operator's guide lists every setting; a setting added to the schema (or to one of the settings modules it
// spreads in) without a line there fails here.
it('docs/deployment.md names every setting of the config schema', () => {
  const schema = read('src/core/config.ts');
  const body = schema.slice(schema.indexOf('const EnvSchema = z.object({'), schema.indexOf('}).superRefine('));
  const modules = readdirSync(fileURLToPath(new URL('../../src/core/settings/', import.meta.url))).map((file) => read(`src/core/settings/${file}`));
  const settings = [body, ...modules].flatMap((text) => [...text.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]!));
  expect(settings).toContain('DATABASE_URL');
  expect(settings).toContain('SHUTDOWN_PROPAGATION_MS');
  const guide = read('docs/deployment.md');
  expect(settings.filter((name) => !guide.includes(`\`${name}\``))).toEqual([]);
});
