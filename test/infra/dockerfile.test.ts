import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The image cannot be built here (no registry for base images), so this reads the Dockerfile and checks what
// would only break at deploy time: a missing file, a run-time import of a dev dependency, root, a wrong command.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PROCESSES = ['api', 'worker', 'migrate'] as const;

type Instruction = { keyword: string; args: string };

function instructions(text: string): Instruction[] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}

const dockerfile = instructions(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
const lastFrom = dockerfile.map((i) => i.keyword).lastIndexOf('FROM');
const runtime = dockerfile.slice(lastFrom);
const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
};
const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'));

const jsonArray = (args: string): string[] => JSON.parse(args) as string[];
const localCopies = runtime.filter((i) => i.keyword === 'COPY' && !i.args.startsWith('--from'));
/** What the runtime stage copies from the build context, as paths relative to the repository (= /app). */
const copiedPaths = localCopies.flatMap((i) => i.args.split(/\s+/).slice(0, -1));
const entryFileOf = (name: string) => /^tsx (\S+\.ts)$/.exec(packageJson.scripts[name] ?? '')?.[1];

function resolveImport(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  const candidates = [base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), base, `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((path) => existsSync(path) && !path.endsWith('/'));
}

/** Every source file a process loads, from its entrypoint, and the packages they import for their values. */
function reach(entries: string[]): { files: Set<string>; packages: Set<string>; unresolved: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const unresolved: string[] = [];
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const source = readFileSync(file, 'utf8');
    const specs = [
      ...[...source.matchAll(/\b(?:import|export)\s+(type\s+)?[\w*\s{},$]*?\s*from\s*['"]([^'"]+)['"]/g)].filter((m) => !m[1]).map((m) => m[2]!),
      ...[...source.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]!),
      ...[...source.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]!),
    ];
    for (const spec of specs) {
      if (spec.startsWith('.')) {
        const target = resolveImport(file, spec);
        if (target) queue.push(target);
        else unresolved.push(`${relative(ROOT, file)} -> ${spec}`);
      } else if (!spec.startsWith('node:') && !builtinModules.includes(spec)) {
        packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
      }
    }
  }
  return { files, packages, unresolved };
}

describe('Dockerfile', () => {
  it('is multi-stage on a Node 20 slim base and installs production dependencies only, from the lockfile', () => {
    const bases = dockerfile.filter((i) => i.keyword === 'FROM').map((i) => i.args.split(/\s+/)[0]);
    expect(bases.length).toBeGreaterThan(1);
    for (const base of bases) expect(base).toMatch(/^node:20(\.\d+)*-slim$/);
    const installs = dockerfile.filter((i) => i.keyword === 'RUN' && /\bnpm (ci|install)\b/.test(i.args));
    expect(installs.map((i) => i.args)).toEqual([expect.stringContaining('npm ci --omit=dev')]);
  });

  it('runs as a non-root user, set before the command', () => {
    const users = runtime.filter((i) => i.keyword === 'USER').map((i) => i.args);
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/);
    const lastUser = runtime.map((i) => i.keyword).lastIndexOf('USER');
    expect(lastUser).toBeLessThan(runtime.map((i) => i.keyword).lastIndexOf('CMD'));
  });

  it('copies only files that exist and that .dockerignore leaves in the build context', () => {
    expect(copiedPaths.length).toBeGreaterThan(0);
    for (const path of copiedPaths) {
      expect(existsSync(join(ROOT, path)), path).toBe(true);
      expect(ignored, path).not.toContain(path.split('/')[0]);
    }
  });

  it('starts the api by default through node and tsx, the entrypoint of `npm run api`', () => {
    const entrypoint = runtime.find((i) => i.keyword === 'ENTRYPOINT');
    expect(jsonArray(entrypoint!.args)).toEqual(['node', '--import', 'tsx']);
    const cmd = jsonArray(runtime.find((i) => i.keyword === 'CMD')!.args);
    expect(cmd).toEqual([entryFileOf('api')]);
    expect(packageJson.dependencies).toHaveProperty('tsx');
  });

  it.each(PROCESSES)('carries every source file and package that `npm run %s` loads', (name) => {
    const entry = entryFileOf(name);
    expect(entry, `package.json script ${name}`).toBeDefined();
    const entries = [join(ROOT, entry!)];
    // The worker bundles the workflows from their source at start-up (process/worker.ts).
    if (name === 'worker') entries.push(join(ROOT, 'workflows/index.ts'));
    const { files, packages, unresolved } = reach(entries);
    expect(unresolved).toEqual([]);
    for (const file of files) {
      const path = relative(ROOT, file);
      expect(copiedPaths.some((copied) => path === copied || path.startsWith(`${copied}/`)), path).toBe(true);
    }
    for (const pkg of packages) expect(Object.keys(packageJson.dependencies), pkg).toContain(pkg);
  });
});
