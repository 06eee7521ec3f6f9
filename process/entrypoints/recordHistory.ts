import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/core/config.js';
import { connectTemporalClient } from '../../src/core/temporal/connection.js';
import { exportHistory } from '../../src/core/temporal/histories.js';

// npm run history:record -- --workflow-id event/evt_... --out test/histories/eventFanout/bank-log.json
const { values } = parseArgs({ options: { 'workflow-id': { type: 'string' }, out: { type: 'string' } } });
if (!values['workflow-id'] || !values.out) {
  console.error('Usage: npm run history:record -- --workflow-id ID --out test/histories/<workflowType>/<case>.json');
  process.exit(2);
}
const client = await connectTemporalClient(loadConfig().temporal);
try {
  await mkdir(dirname(values.out), { recursive: true });
  await writeFile(values.out, await exportHistory(client, values['workflow-id']));
  console.log(`Wrote ${values.out}`);
} finally {
  await client.connection.close();
}
