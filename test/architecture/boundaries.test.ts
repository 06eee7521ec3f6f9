// The import-direction rules (.dependency-cruiser.cjs), each run with the repo's own config against a small fake
// tree in a temp directory: one violation that must be reported, and one allowed case that must report nothing.
import { join } from 'node:path';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { describe, expect, it } from 'vitest';
import { repo, useFakeTrees, type Tree } from './fakeTree.js';

const fakeTree = useFakeTrees();

/** Runs dependency-cruiser as `npm run lint` does, from the fake tree's root; the names of the broken rules. */
async function brokenRules(files: Tree): Promise<string[]> {
  const dir = await fakeTree(files);
  const options = await extractDepcruiseOptions(join(repo, '.dependency-cruiser.cjs'));
  const tsConfig = join(dir, 'tsconfig.json');
  const folders = ['process', 'src', 'api', 'db', 'activities', 'workflows'].filter((folder) =>
    Object.keys(files).some((path) => path.startsWith(`${folder}/`)),
  );
  const { output } = await cruise(folders, { ...options, baseDir: dir, tsConfig: { fileName: tsConfig } }, {}, {
    tsConfig: extractTSConfig(tsConfig),
  });
  const violations = (output as ICruiseResult).summary.violations;
  expect(violations.every((violation) => violation.rule.severity === 'error')).toBe(true);
  return [...new Set(violations.map((violation) => violation.rule.name))].sort();
}

const empty = 'export {};\n';

describe('dependency-cruiser rules', () => {
  it.each<{ rule: string; case: string; files: Tree; also?: string[] }>([
    {
      rule: 'no-circular',
      case: 'a cycle between two area files',
      files: { 'src/levels/a.ts': "import './b.js';\n", 'src/levels/b.ts': "import './a.js';\n" },
    },
    {
      rule: 'core-above-db',
      case: 'src/core/ imports an area',
      files: { 'src/core/clock.ts': "import '../levels/curve.js';\n", 'src/levels/curve.ts': empty },
    },
    {
      rule: 'core-above-db',
      case: 'src/core/ imports a db/ query file',
      files: { 'src/core/clock.ts': "import '../../db/levels/members.js';\n", 'db/levels/members.ts': empty },
    },
    {
      rule: 'db-is-the-bottom',
      case: 'db/ imports src/core/ (type-only counts)',
      files: { 'db/x.ts': "import type { Y } from '../src/core/y.js';\nexport type X = Y;\n", 'src/core/y.ts': 'export type Y = 1;\n' },
    },
    {
      rule: 'db-is-the-bottom',
      case: 'db/ imports api/',
      files: { 'db/x.ts': "import '../api/y.js';\n", 'api/y.ts': empty },
    },
    {
      rule: 'db-is-the-bottom',
      case: 'db/ imports an area (type-only counts)',
      files: { 'db/x.ts': "import type { Y } from '../src/levels/y.js';\nexport type X = Y;\n", 'src/levels/y.ts': 'export type Y = 1;\n' },
    },
    {
      rule: 'areas-below-api',
      case: 'an area imports activities/',
      files: { 'src/levels/x.ts': "import '../../activities/y.js';\n", 'activities/y.ts': empty },
    },
    {
      rule: 'activities-not-api',
      case: 'activities/ imports api/',
      files: { 'activities/x.ts': "import '../api/y.js';\n", 'api/y.ts': empty },
    },
    {
      rule: 'api-not-workers',
      case: 'api/ imports workflows/',
      files: { 'api/x.ts': "import '../workflows/y.js';\n", 'workflows/y.ts': empty },
    },
    {
      rule: 'api-types-from-db',
      case: 'api/ imports a value from db/',
      files: { 'api/x.ts': "import { y } from '../db/y.js';\nexport const x = y;\n", 'db/y.ts': 'export const y = 1;\n' },
    },
    {
      rule: 'api-types-from-db',
      case: 'api/ imports a db/ file for its side effects',
      files: { 'api/x.ts': "import '../db/y.js';\n", 'db/y.ts': empty },
    },
    {
      rule: 'process-is-the-top',
      case: 'api/ imports process/',
      also: ['api-not-workers'], // every importer outside process/ is also under a rule of its own
      files: { 'api/x.ts': "import '../process/wiring.js';\n", 'process/wiring.ts': empty },
    },
    {
      rule: 'workflows-deterministic',
      case: 'a workflow imports a node builtin',
      files: { 'workflows/x.ts': "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n" },
    },
    {
      rule: 'workflows-deterministic',
      case: 'a workflow imports a package other than @temporalio/workflow|common',
      files: { 'workflows/x.ts': "import { Pool } from 'pg';\nexport const p = Pool;\n" },
    },
    {
      rule: 'workflows-deterministic',
      case: 'a workflow imports a value from activities/',
      files: { 'workflows/x.ts': "import { a } from '../activities/index.js';\nexport const b = a;\n", 'activities/index.ts': 'export const a = 1;\n' },
    },
    {
      rule: 'workflows-deterministic',
      case: 'a workflow imports a type from db/',
      files: { 'workflows/x.ts': "import type { Y } from '../db/y.js';\nexport type X = Y;\n", 'db/y.ts': 'export type Y = 1;\n' },
    },
    {
      rule: 'workflows-deterministic',
      case: 'a workflow imports another src/ file',
      files: { 'workflows/x.ts': "import '../src/webhooks/delivery.js';\n", 'src/webhooks/delivery.ts': empty },
    },
    {
      rule: 'ids-are-pure',
      case: 'ids.ts imports a src/ file that is not an ids.ts file',
      files: { 'src/levels/ids.ts': "import '../core/clock.js';\n", 'src/core/clock.ts': empty },
    },
    {
      rule: 'ids-are-pure',
      case: 'ids.ts imports a package value',
      files: { 'src/levels/ids.ts': "import { z } from 'zod';\nexport const Id = z.string();\n" },
    },
  ])('$rule: reported when $case', async ({ rule, files, also = [] }) => {
    expect(await brokenRules(files)).toEqual([rule, ...also].sort());
  });

  it.each<{ rule: string; case: string; files: Tree }>([
    {
      rule: 'no-circular',
      case: 'a one-way import',
      files: { 'src/levels/a.ts': "import './b.js';\n", 'src/levels/b.ts': empty },
    },
    {
      rule: 'core-above-db',
      case: 'src/core/ imports src/core/, db/vocabulary.ts, builtins and packages',
      files: {
        'src/core/clock.ts': "import './temporal/ids.js';\nimport '../../db/vocabulary.js';\nimport 'node:fs';\nimport 'zod';\n",
        'src/core/temporal/ids.ts': empty,
        'db/vocabulary.ts': empty,
      },
    },
    {
      rule: 'db-is-the-bottom',
      case: 'db/ imports db/, packages and builtins',
      files: {
        'db/x.ts': "import './shared/y.js';\nimport 'kysely';\nimport 'node:path';\n",
        'db/shared/y.ts': empty,
      },
    },
    {
      rule: 'areas-below-api',
      case: 'an area imports src/core/, another area and db/',
      files: {
        'src/levels/x.ts': "import '../core/clock.js';\nimport '../bank/y.js';\nimport '../../db/z.js';\n",
        'src/core/clock.ts': empty,
        'src/bank/y.ts': empty,
        'db/z.ts': empty,
      },
    },
    {
      rule: 'activities-not-api',
      case: 'activities/ imports db/ and an area',
      files: { 'activities/x.ts': "import '../db/y.js';\nimport '../src/levels/z.js';\n", 'db/y.ts': empty, 'src/levels/z.ts': empty },
    },
    {
      rule: 'api-not-workers',
      case: 'api/ imports an area and types from db/',
      files: {
        'api/x.ts': "import '../src/levels/z.js';\nimport type { Y } from '../db/y.js';\nexport type X = Y;\n",
        'db/y.ts': 'export type Y = 1;\n',
        'src/levels/z.ts': empty,
      },
    },
    {
      rule: 'api-types-from-db',
      case: 'api/ imports a type from db/',
      files: { 'api/x.ts': "import type { Y } from '../db/y.js';\nexport type X = Y;\n", 'db/y.ts': 'export type Y = 1;\n' },
    },
    {
      rule: 'process-is-the-top',
      case: 'process/ imports process/, workflows/ and api/',
      files: {
        'process/worker.ts': "import './wiring.js';\nimport '../workflows/index.js';\nimport '../api/app.js';\n",
        'process/wiring.ts': empty,
        'workflows/index.ts': empty,
        'api/app.ts': empty,
      },
    },
    {
      rule: 'workflows-deterministic',
      case: 'a workflow imports everything on its allow-list',
      files: {
        'workflows/x.ts': [
          "import { sleep } from '@temporalio/workflow';",
          "import { ApplicationFailure } from '@temporalio/common';",
          "import type { Activities } from '../activities/index.js';",
          "import { y } from './y.js';",
          "import { LevelId } from '../src/levels/ids.js';",
          "import { ERROR_CODES } from '../src/core/errorCodes.js';",
          "import { operationAttributes } from '../src/core/temporal/searchAttributes.js';",
          'export type A = Activities;',
          'export const all = [sleep, ApplicationFailure, y, LevelId, ERROR_CODES, operationAttributes];',
        ].join('\n'),
        'workflows/y.ts': 'export const y = 1;\n',
        'activities/index.ts': 'export type Activities = object;\n',
        'src/levels/ids.ts': 'export const LevelId = 1;\n',
        'src/core/errorCodes.ts': 'export const ERROR_CODES = [];\n',
        'src/core/temporal/searchAttributes.ts': 'export const operationAttributes = 1;\n',
      },
    },
    {
      rule: 'ids-are-pure',
      case: 'ids.ts imports ids.ts, errorCodes.ts, and types from anywhere',
      files: {
        'src/levels/ids.ts': [
          "import '../bank/ids.js';",
          "import '../core/errorCodes.js';",
          "import type { Row } from '../../db/levels.js';",
          "import type { z } from 'zod';",
          'export type Both = [Row, z.ZodString];',
        ].join('\n'),
        'src/bank/ids.ts': empty,
        'src/core/errorCodes.ts': empty,
        'db/levels.ts': 'export type Row = 1;\n',
      },
    },
  ])('$rule: allows $case', async ({ files }) => {
    expect(await brokenRules(files)).toEqual([]);
  });
});
