// docs/architecture.md is the map a new maintainer reads first; this test keeps it true. Every file or folder it
// names exists, every code name it quotes is in the code, and its table of imports between layers is both complete
// (each import the code makes is in it) and allowed (no row says what .dependency-cruiser.cjs forbids).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const doc = readFileSync(join(repo, 'docs/architecture.md'), 'utf8');
const CODE_FOLDERS = ['api', 'src', 'db', 'process', 'workflows', 'activities'];
const quoted = [...doc.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);

/** Every line of the service's TypeScript, to look quoted names up in. */
function codeText(): string {
  const parts: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(name)) parts.push(readFileSync(path, 'utf8'));
    }
  };
  for (const folder of CODE_FOLDERS) walk(join(repo, folder));
  return parts.join('\n');
}

/** A table row: a layer (a path pattern, `<area>` standing for any area but core) and what it may import. */
interface ImportRow {
  from: string;
  to: Array<{ layer: string; typesOnly: boolean }>;
}

function importTable(): ImportRow[] {
  const section = doc.split('<!-- import table -->')[1]?.split('\n\n')[0] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [, from, to] = line.split('|').map((cell) => cell.trim());
      return {
        from: /`([^`]+)`/.exec(from!)![1]!,
        to: [...to!.matchAll(/`([^`]+)`( \(types only\))?/g)].map((m) => ({ layer: m[1]!, typesOnly: Boolean(m[2]) })),
      };
    });
}

const AREA = '(?!core/)[^/]+';
const layerPattern = (layer: string) => new RegExp(`^${layer.replaceAll('.', '\\.').replaceAll('<area>', AREA)}${layer.endsWith('/') ? '' : '$'}`);
/** The row a file belongs to: the most specific layer that matches it. */
const rowOf = (rows: ImportRow[], path: string) =>
  rows.filter((r) => layerPattern(r.from).test(path)).sort((a, b) => b.from.length - a.from.length)[0];

/** A file standing for a layer, for the import rules; `side` keeps an area's import of another area apart. */
const sampleOf = (layer: string, side: 'from' | 'to') =>
  layer.replaceAll('<area>', side === 'from' ? 'levels' : 'bank') + (layer.endsWith('/') ? (layer === 'db/' ? 'bank/sample.ts' : 'sample.ts') : '');

interface RuleEnd {
  path?: string;
  pathNot?: string | string[];
  dependencyTypesNot?: string[];
}
const anyMatch = (patterns: string | string[] | undefined, path: string) => [patterns ?? []].flat().some((p) => new RegExp(p).test(path));
const endMatches = (end: RuleEnd, path: string) => (!end.path || new RegExp(end.path).test(path)) && !anyMatch(end.pathNot, path);

/** The rules of .dependency-cruiser.cjs that forbid importing `to` from `from` (type-only or not). */
function forbiddenBy(from: string, to: string, typesOnly: boolean): string[] {
  const config = createRequire(import.meta.url)(join(repo, '.dependency-cruiser.cjs')) as { forbidden: Array<{ name: string; from: RuleEnd; to: RuleEnd & { circular?: boolean } }> };
  return config.forbidden
    .filter((rule) => !rule.to.circular)
    .filter((rule) => endMatches(rule.from, from) && endMatches(rule.to, to) && !(typesOnly && rule.to.dependencyTypesNot?.includes('type-only')))
    .map((rule) => rule.name);
}

describe('docs/architecture.md', () => {
  it('names only files and folders that exist', () => {
    const paths = quoted.filter((q) => /^(api|src|db|process|workflows|activities|test|docs|bench)\/[^\s<>*{}]*$/.test(q));
    expect(paths.length).toBeGreaterThan(50);
    expect(paths.filter((p) => !existsSync(join(repo, p)))).toEqual([]);
  });

  it('quotes only names the code has (functions, types, activities, settings)', () => {
    const code = codeText();
    const names = quoted.map((q) => /^([A-Za-z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*)(\(.*\))?$/.exec(q)?.[1]).filter((n): n is string => n !== undefined);
    expect(names.length).toBeGreaterThan(40);
    expect([...new Set(names)].filter((name) => !new RegExp(`\\b${name}\\b`).test(code))).toEqual([]);
  });

  it("lists every import between layers that the code makes, in its table of imports", async () => {
    const rows = importTable();
    expect(rows.map((r) => r.from)).toContain('process/');
    const options = await extractDepcruiseOptions(join(repo, '.dependency-cruiser.cjs'));
    const tsConfig = join(repo, 'tsconfig.json');
    const { output } = await cruise(CODE_FOLDERS, { ...options, baseDir: repo, tsConfig: { fileName: tsConfig } }, {}, { tsConfig: extractTSConfig(tsConfig) });
    const missing = new Set<string>();
    for (const module of (output as ICruiseResult).modules) {
      const row = rowOf(rows, module.source);
      if (!row) continue;
      for (const dependency of module.dependencies) {
        const target = dependency.resolved;
        if (!CODE_FOLDERS.some((f) => target.startsWith(`${f}/`)) || layerPattern(row.from).test(target)) continue;
        const typesOnly = dependency.dependencyTypes.includes('type-only');
        if (!row.to.some((t) => layerPattern(t.layer).test(target) && (typesOnly || !t.typesOnly))) {
          missing.add(`${row.from} -> ${target}${typesOnly ? ' (types only)' : ''}, e.g. from ${module.source}`);
        }
      }
    }
    expect([...missing]).toEqual([]);
  });

  it('lists no import that the import rules forbid', () => {
    const refused = importTable().flatMap((row) =>
      row.to.flatMap((t) => forbiddenBy(sampleOf(row.from, 'from'), sampleOf(t.layer, 'to'), t.typesOnly).map((rule) => `${row.from} -> ${t.layer}: ${rule}`)),
    );
    expect(refused).toEqual([]);
  });

  it('would notice a row that the rules forbid', () => {
    expect(forbiddenBy(sampleOf('api/', 'from'), sampleOf('db/', 'to'), false)).toEqual(['api-types-from-db']);
    expect(forbiddenBy(sampleOf('src/core/', 'from'), sampleOf('src/<area>/', 'to'), false)).toEqual(['core-above-db']);
  });
});
