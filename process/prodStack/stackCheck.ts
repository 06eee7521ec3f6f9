import { setTimeout as sleep } from 'node:timers/promises';
import { DEMO_OWNER_ID } from '../demo/demoGuild.js';
import type { ProdStack } from './startProdStack.js';

const CHECK_TIMEOUT_MS = 60_000;

/**
 * `npm run stack:prod -- --check`: one XP change posted through the first api and read back through the second
 * until it is done, so the api processes, the workers, the real Temporal server and PostgreSQL are all seen
 * working together. Throws with what was seen when it does not complete.
 */
export async function checkProdStack(stack: ProdStack, log: (line: string) => void): Promise<void> {
  const [first, second] = stack.apiOrigins as [string, string];
  const headers = { Authorization: `Bearer ${stack.apiKey}`, 'Content-Type': 'application/json' };
  const levels = `/api/v1/guilds/${stack.guildId}/levels`;
  const posted = await fetch(`${first}${levels}/members/${DEMO_OWNER_ID}/xp-changes`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ type: 'add', amount: 10, reason: 'stack:prod --check' }),
  });
  if (posted.status !== 202) throw new Error(`check: POST xp-changes on ${first} answered ${posted.status}: ${await posted.text()}`);
  const { changeId } = (await posted.json()) as { changeId: string };
  const deadline = performance.now() + CHECK_TIMEOUT_MS;
  let last = '';
  while (performance.now() < deadline) {
    const res = await fetch(`${second}${levels}/xp-changes/${changeId}`, { headers });
    last = `${res.status} ${await res.text()}`;
    const status = res.status === 200 ? (JSON.parse(last.slice(4)) as { status: string }).status : undefined;
    if (status === 'done') return log(`check passed: XP change ${changeId} posted on ${first}, done as read on ${second}`);
    if (status === 'failed') break;
    await sleep(200);
  }
  throw new Error(`check failed: XP change ${changeId} not done within ${CHECK_TIMEOUT_MS / 1000} s; last read on ${second}: ${last}`);
}
