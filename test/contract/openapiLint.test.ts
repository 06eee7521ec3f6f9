import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../harness/database.js';
import { useTestApp } from '../harness/testApp.js';
import { ROOT, runBin, useServedDocument } from './tools.js';

// The served document, linted as outside tools see it: Redocly's recommended rules (redocly.yaml) and
// Spectral's spectral:oas (.spectral.yaml); those files say which rules are off for this API, and why.
const database = useTestDatabase();
const app = useTestApp(() => database.db);
const served = useServedDocument(app);

describe('the served OpenAPI document passes both linters without an error or a warning', () => {
  it('@redocly/cli lint (recommended)', async () => {
    const run = await runBin('redocly', ['lint', served.file, '--config', join(ROOT, 'redocly.yaml'), '--format', 'json'], {
      // No usage report and no look-up of newer versions: the linter talks to nobody.
      REDOCLY_TELEMETRY: 'off',
      REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
    });
    const report = JSON.parse(run.stdout) as {
      totals: { errors: number; warnings: number };
      problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer: string }> }>;
    };
    const problems = report.problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(run.code, run.stderr).toBe(0);
  });

  it('@stoplight/spectral-cli lint (spectral:oas)', async () => {
    const run = await runBin('spectral', ['lint', served.file, '--ruleset', join(ROOT, '.spectral.yaml'), '--format', 'json', '--quiet']);
    // Severity 0 is an error, 1 a warning (2 and 3 are information and hints).
    const results = JSON.parse(run.stdout || '[]') as Array<{ code: string; severity: number; message: string; path: string[] }>;
    const problems = results.filter((r) => r.severity <= 1).map((r) => `${r.severity === 0 ? 'error' : 'warning'} ${r.code} ${r.path.join('.')}: ${r.message}`);
    expect(problems).toEqual([]);
    expect(run.code, run.stderr).toBe(0);
  });
});
