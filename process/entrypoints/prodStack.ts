import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { withLocalWebhooks } from '../dev/localWebhooks.js';
import { prodStackBanner } from '../prodStack/banner.js';
import { checkProdStack } from '../prodStack/stackCheck.js';
import { startProdStack } from '../prodStack/startProdStack.js';
import { loadConfigOrExit } from './bootConfig.js';
import { runUntilSignal } from './shutdown.js';

// `npm run stack:prod`: the production topology with the real Temporal server, for operators and the reference
// figures (docs/deployment.md, Production-like stack). Never needed by `npm run dev` or `npm test`.
const root = fileURLToPath(new URL('../..', import.meta.url));
const say = (line: string) => console.log(`[stack:prod] ${line}`);
const values = (() => {
  try {
    return parseArgs({ args: process.argv.slice(2), options: { check: { type: 'boolean', default: false } }, strict: true }).values;
  } catch (err) {
    process.stderr.write(`error: ${(err as Error).message} (the one option is --check)\n`);
    process.exit(2);
  }
})();

const config = withLocalWebhooks(loadConfigOrExit());

runUntilSignal(async (defer) => {
  const workDir = await mkdtemp(join(tmpdir(), 'cb-prod-stack-'));
  // As root, PostgreSQL runs as the `postgres` user, which must pass through to its data folder inside.
  await chmod(workDir, 0o711);
  // Registered first, so it runs last, once PostgreSQL has stopped. The processes' logs stay for a look afterwards.
  defer(() => rm(join(workDir, 'pgdata'), { recursive: true, force: true }));
  const stack = await startProdStack(config, root, workDir, say, defer);
  console.log(prodStackBanner(stack, workDir));
  if (values.check) {
    await checkProdStack(stack, say);
    // The same ordered stop as Ctrl-C, with exit code 0.
    process.kill(process.pid, 'SIGINT');
  }
}, say);
