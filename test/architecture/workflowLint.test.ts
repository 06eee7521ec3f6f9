// The workflow lint (eslint.config.js), run with the repo's own config against a small fake tree: the determinism
// rules must fire on a violation and stay quiet on a clean workflow.
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { repo, useFakeTrees, type Tree } from './fakeTree.js';

const fakeTree = useFakeTrees();

describe('workflow lint', () => {
  it.each<{ name: string; code: string; expected: string[]; others?: Tree }>([
    {
      name: 'a node builtin and a floating promise',
      code: [
        "import { readFileSync } from 'node:fs';",
        "import { sleep } from '@temporalio/workflow';",
        'export async function wf(): Promise<string> {',
        '  sleep(1000);',
        "  return readFileSync('x', 'utf8');",
        '}',
      ].join('\n'),
      expected: ['@typescript-eslint/no-floating-promises', 'no-restricted-imports'],
    },
    {
      name: 'timers and the environment',
      code: 'export function wf(): void {\n  setTimeout(() => {}, 1);\n  console.log(process.env);\n}\n',
      expected: ['no-restricted-globals', 'no-restricted-globals'],
    },
    {
      name: 'an inline type qualifier, which still loads the module',
      code: "import { type Activities } from '../activities/index.js';\nexport type A = Activities;\n",
      others: { 'activities/index.ts': 'export type Activities = object;\n' },
      expected: ['@typescript-eslint/no-import-type-side-effects'],
    },
    {
      name: 'a clean workflow',
      code: [
        "import { sleep } from '@temporalio/workflow';",
        'export async function wf(): Promise<void> {',
        '  await sleep(1000);',
        '}',
      ].join('\n'),
      expected: [],
    },
  ])('$name: $expected', async ({ code, expected, others = {} }) => {
    const dir = await fakeTree({ ...others, 'workflows/wf.ts': `${code}\n` });
    const eslint = new ESLint({ cwd: dir, overrideConfigFile: join(repo, 'eslint.config.js') });
    const [result] = await eslint.lintFiles(['workflows/wf.ts']);
    expect(result?.filePath).toBe(join(dir, 'workflows/wf.ts'));
    expect(result?.messages.map((message) => message.ruleId).sort()).toEqual(expected);
    expect(result?.messages.every((message) => message.severity === 2)).toBe(true);
  });
});
