import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';

// Small fake projects in a temp directory, for running the repo's own lint configs against one case at a time.

export const repo = fileURLToPath(new URL('../..', import.meta.url));
export type Tree = Record<string, string>;

/** fakeTree(files) for the calling test file: each call a fake project of the given files, all removed after the file. */
export function useFakeTrees(): (files: Tree) => Promise<string> {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'boundaries-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  /** A fake project: the given files, a tsconfig extending the repo's, and the repo's packages. */
  return async function fakeTree(files: Tree): Promise<string> {
    const dir = await mkdtemp(join(root, 'tree-'));
    const all: Tree = {
      'tsconfig.json': JSON.stringify({ extends: join(repo, 'tsconfig.json'), include: ['**/*.ts'] }),
      ...files,
    };
    for (const [path, text] of Object.entries(all)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), text);
    }
    await symlink(join(repo, 'node_modules'), join(dir, 'node_modules'), 'dir');
    return dir;
  };
}
