// ESLint lints only workflow code: what dependency-cruiser cannot see inside a file (floating promises,
// Node globals, I/O imports) breaks Temporal's deterministic replay. Pinned by
// test/architecture/workflowLint.test.ts.
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

/** Packages that do I/O or belong to the client/worker side of Temporal. */
const IO_PACKAGES = [
  'pg',
  'kysely',
  'undici',
  'koa',
  '@koa/router',
  '@temporalio/client',
  '@temporalio/worker',
  '@temporalio/activity',
  'pino',
];
const escape = (name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

export default [
  {
    files: ['workflows/**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // With verbatimModuleSyntax, `import { type A } from 'x'` still loads 'x' at run time; dependency-cruiser
      // counts it as type-only, so this rule makes the workflows' type-only imports really type-only.
      '@typescript-eslint/no-import-type-side-effects': 'error',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'Workflows run in a sandbox without Node APIs.' },
            {
              // every bare builtin name (fs, path, crypto, http, timers, worker_threads, process, fs/promises, ...)
              regex: `^(${builtinModules.filter((m) => !m.startsWith('_')).map(escape).join('|')})(/.*)?$`,
              message: 'Workflows run in a sandbox without Node APIs.',
            },
            {
              regex: `^(${IO_PACKAGES.map(escape).join('|')})(/.*)?$`,
              message: 'Workflows do no I/O: call an activity.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'Workflows must not read the process environment.' },
        { name: 'require', message: 'Workflows use ES imports only.' },
        { name: 'setTimeout', message: "Use sleep() from '@temporalio/workflow'." },
        { name: 'setInterval', message: "Use sleep() from '@temporalio/workflow' in a loop." },
        { name: 'fetch', message: 'Workflows do no I/O: call an activity.' },
      ],
    },
  },
];
