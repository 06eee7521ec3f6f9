import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/core/config.js';
import { resolveTemporalServerBinaries, TemporalServerBinaryError } from '../../process/infra/temporalServerBinaries.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cb-temporal-bin-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function executable(name: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, '#!/bin/sh\n');
  await chmod(path, 0o755);
  return path;
}

const noLog = () => {};

describe('resolveTemporalServerBinaries', () => {
  it('uses the two binaries of the cache folder without building anything', async () => {
    const server = await executable('server');
    const sqlTool = await executable('sql');
    await expect(resolveTemporalServerBinaries({ binarySearchPath: '' }, noLog, dir)).resolves.toEqual({ server, sqlTool });
  });

  it('prefers the configured paths to the cache folder', async () => {
    await executable('server');
    await executable('sql');
    const server = await executable('my-server');
    const sqlTool = await executable('my-sql');
    await expect(resolveTemporalServerBinaries({ serverPath: server, sqlToolPath: sqlTool, binarySearchPath: '' }, noLog, dir)).resolves.toEqual({ server, sqlTool });
  });

  it.each([
    ['TEMPORAL_SERVER_PATH', { serverPath: '/nonexistent/server' }, '/nonexistent/server'],
    ['TEMPORAL_SQL_TOOL_PATH', { sqlToolPath: '/nonexistent/sql' }, '/nonexistent/sql'],
  ])('refuses %s naming no executable file, without falling back', async (setting, paths, path) => {
    await executable('server');
    await executable('sql');
    const err = await resolveTemporalServerBinaries({ ...paths, binarySearchPath: '' }, noLog, dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TemporalServerBinaryError);
    expect((err as Error).message).toBe(`${setting}=${path} is not an executable file.`);
  });

  it('says how to get the binary when it must be built and go is not on PATH', async () => {
    await executable('sql');
    const lines: string[] = [];
    const err = await resolveTemporalServerBinaries({ binarySearchPath: dir }, (line) => lines.push(line), dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TemporalServerBinaryError);
    expect((err as Error).message).toBe(
      'Could not build go.temporal.io/server/cmd/server@v1.31.2 (go is not on PATH). Install Go (1.26.4 or newer, as its go.mod asks) and try again, ' +
        'or set TEMPORAL_SERVER_PATH to a built server binary.',
    );
    expect(lines).toEqual([`Building go.temporal.io/server/cmd/server@v1.31.2 into ${dir} with go install (about 9 minutes for the server, once)...`]);
  });
});

describe('the real server settings', () => {
  it('default to 4 history shards and the cache folder', () => {
    expect(loadConfig({}).temporal).toMatchObject({ historyShards: 4, serverPath: undefined, sqlToolPath: undefined });
  });

  it.each(['0', '16385', 'four'])('refuse TEMPORAL_HISTORY_SHARDS=%s', (value) => {
    expect(() => loadConfig({ TEMPORAL_HISTORY_SHARDS: value })).toThrow(/TEMPORAL_HISTORY_SHARDS/);
  });
});
