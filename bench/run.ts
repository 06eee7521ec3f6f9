import { cpus } from 'node:os';
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { runOnStack, type TemporalRecord } from './onStack.js';
import { parseBenchOptions } from './options.js';
import { addCeilingRatio, printTable } from './report.js';
import { SCENARIOS, SCENARIO_NAMES, STANDALONE, type ScenarioResult } from './scenarioTable.js';

// `npm run bench`: the standalone scenarios, then those on the stack (PostgreSQL, Temporal, the api and worker
// threads), and one JSON report in bench/results/ with a table of it on stdout.

const { values, target, workers, names } = parseBenchOptions(SCENARIO_NAMES);
const root = fileURLToPath(new URL('..', import.meta.url));
const log = (line: string) => console.log(`[bench] ${line}`);
const members = Number(values.members);
const results: ScenarioResult[] = [];
for (const name of names.filter((n): n is keyof typeof STANDALONE => n in STANDALONE)) {
  log(`running ${name}...`);
  results.push(await STANDALONE[name](values));
}
const onStack = names.filter((n): n is keyof typeof SCENARIOS => n in SCENARIOS);
let temporal: TemporalRecord | null = null;
if (onStack.length > 0) {
  const ran = await runOnStack(onStack, { values, target, workers, root, log });
  results.push(...ran.results);
  temporal = ran.temporal;
}
addCeilingRatio(results);
const report = {
  recordedAt: new Date().toISOString(),
  machine: { node: process.version, cpus: cpus().length },
  dataset: onStack.length > 0 ? { members, accountsWithLedger: members } : null,
  temporal,
  results,
};
await mkdir(new URL('./results/', import.meta.url), { recursive: true });
const file = new URL(`./results/run-${report.recordedAt.replace(/[:.]/g, '-')}.json`, import.meta.url);
await writeFile(file, JSON.stringify(report, null, 2));
printTable(results);
log(`results written to ${fileURLToPath(file)}`);
