import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import type { TestApp } from '../harness/testApp.js';

/** The repository root: the linters' configs, node_modules/.bin and docs/ are found from here. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ToolRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a CLI of node_modules/.bin from the repository root; a non-zero exit is returned, not thrown. */
export function runBin(name: string, args: string[], env: Record<string, string> = {}): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    execFile(
      join(ROOT, 'node_modules', '.bin', name),
      args,
      { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', ...env }, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 },
      (err, stdout, stderr) => {
        if (err && typeof err.code !== 'number') reject(err);
        else resolve({ code: err ? (err.code as number) : 0, stdout, stderr });
      },
    );
  });
}

/**
 * The document the app serves (GET {base_url}/openapi.json), written to a file of a temporary folder that
 * the file's tests share and that is removed after them.
 */
export function useServedDocument(app: TestApp) {
  const served = { dir: '', file: '', document: {} as Record<string, unknown> };
  beforeAll(async () => {
    const res = await app.http('GET', '/openapi.json');
    expect(res.status).toBe(200);
    served.document = res.body as Record<string, unknown>;
    served.dir = await mkdtemp(join(tmpdir(), 'openapi-contract-'));
    served.file = join(served.dir, 'openapi.json');
    await writeFile(served.file, res.text);
  });
  afterAll(async () => {
    if (served.dir) await rm(served.dir, { recursive: true, force: true });
  });
  return served;
}
