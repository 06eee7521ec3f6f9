import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { bundleWorkflows } from '../worker.js';

// npm run bundle:workflows -- --out dist/workflows.js, then WORKFLOW_BUNDLE_PATH=dist/workflows.js for the worker:
// the worker then loads the bundle instead of running webpack itself (about 100 MB less resident memory).
const { values } = parseArgs({ options: { out: { type: 'string' } } });
if (!values.out) {
  console.error('Usage: npm run bundle:workflows -- --out <file.js>');
  process.exit(2);
}
const { code } = await bundleWorkflows();
await mkdir(dirname(values.out), { recursive: true });
await writeFile(values.out, code);
console.log(`Wrote ${values.out} (${Math.round(code.length / 1024)} KiB)`);
