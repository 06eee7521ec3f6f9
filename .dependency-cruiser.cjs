// Import-direction rules, checked by `npm run lint` (part of `npm test`) and pinned by
// test/architecture/boundaries.test.ts. Paths are relative to the repo root (or to `baseDir`).
//
// Layers, bottom to top: db < src/core < the areas in src/ < api, activities, workflows < process.
// db owns the words it stores (db/vocabulary.ts: plans, features, scopes); src/core builds on them.

/** Files in src/ that each area keeps pure: its ids/types file, and the error codes. */
const PURE_IDS = '^src/[^/]+/ids\\.ts$';
const ERROR_CODES = '^src/core/errorCodes\\.ts$';
const NODE_MODULES = '(^|/)node_modules/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles anywhere (type-only imports included).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-above-db',
      severity: 'error',
      comment: 'src/core imports only src/core, db/vocabulary.ts (the stored words) and packages.',
      from: { path: '^src/core/' },
      to: { path: '^(src|db|api|activities|workflows)/', pathNot: ['^src/core/', '^db/vocabulary\\.ts$'] },
    },
    {
      name: 'db-is-the-bottom',
      severity: 'error',
      comment: 'db/ imports only db/, packages and node builtins.',
      from: { path: '^db/' },
      to: { pathNot: ['^db/', NODE_MODULES], dependencyTypesNot: ['core'] },
    },
    {
      name: 'areas-below-api',
      severity: 'error',
      comment: 'The areas in src/ never import api/, activities/, workflows/ or process/.',
      from: { path: '^src/', pathNot: '^src/core/' },
      to: { path: '^(api|activities|workflows|process)/' },
    },
    {
      name: 'activities-not-api',
      severity: 'error',
      comment: 'activities/ never imports api/, workflows/ or process/.',
      from: { path: '^activities/' },
      to: { path: '^(api|workflows|process)/' },
    },
    {
      name: 'api-not-workers',
      severity: 'error',
      comment: 'api/ never imports activities/, workflows/ or process/.',
      from: { path: '^api/' },
      to: { path: '^(activities|workflows|process)/' },
    },
    {
      name: 'api-types-from-db',
      severity: 'error',
      comment:
        'api/ imports db/ only with `import type`: every read and write goes through an area in src/ (routes) ' +
        'or src/requests and src/keys (the request machinery).',
      from: { path: '^api/' },
      to: { path: '^db/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'process-is-the-top',
      severity: 'error',
      comment: 'Only process/ imports process/.',
      from: { path: '^(src|api|db|activities|workflows)/' },
      to: { path: '^process/' },
    },
    // workflows-deterministic is two rules under one name: a rule's conditions are AND-ed, and
    // "outside the allow-list, or a value import of activities/" is an OR.
    {
      name: 'workflows-deterministic',
      severity: 'error',
      comment:
        'Workflow code runs in the deterministic sandbox: it imports only workflows/, @temporalio/workflow, ' +
        '@temporalio/common, src/*/ids.ts, src/core/errorCodes.ts, src/core/temporal/searchAttributes.ts, ' +
        'src/core/temporal/dispatcherProtocol.ts and (type-only) activities/.',
      from: { path: '^workflows/' },
      to: {
        pathNot: [
          '^workflows/',
          '^activities/', // type-only: see the next rule
          `${NODE_MODULES}@temporalio/(workflow|common)/`,
          PURE_IDS,
          ERROR_CODES,
          '^src/core/temporal/searchAttributes\\.ts$',
          '^src/core/temporal/dispatcherProtocol\\.ts$',
        ],
      },
    },
    {
      name: 'workflows-deterministic',
      severity: 'error',
      comment: 'Workflows import activities/ only with `import type` (for proxyActivities<typeof ...>).',
      from: { path: '^workflows/' },
      to: { path: '^activities/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'ids-are-pure',
      severity: 'error',
      comment: 'src/*/ids.ts imports only other ids.ts files and errorCodes.ts, except with `import type`.',
      from: { path: PURE_IDS },
      to: { pathNot: [PURE_IDS, ERROR_CODES], dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    // test/ and bench/ are not cruised; packages are leaves (seen as targets, never followed).
    exclude: { path: '^(test|bench)/' },
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports are dependencies too, marked 'type-only' in dependencyTypes.
    tsPreCompilationDeps: true,
    moduleSystems: ['es6', 'cjs'],
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
