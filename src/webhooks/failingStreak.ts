import type { Kysely } from 'kysely';
import { noteEndpointOutcome, setEndpointEnabled } from '../../db/webhooks/webhooks.js';
import type { Database } from '../../db/schema.js';
import { DISABLE_AFTER_MS } from './delivery.js';

/**
 * Notes a batch's attempts to one endpoint in its failure streak, once per batch rather than once per
 * attempt: any success ends the streak; otherwise the earliest failure starts it, and an endpoint failing
 * for a day is disabled.
 */
export async function noteFailingStreak(db: Kysely<Database>, endpointId: number, outcomes: Array<{ ok: boolean; at: Date }>): Promise<void> {
  if (outcomes.length === 0) return;
  const latest = outcomes.reduce((a, b) => (b.at > a.at ? b : a));
  if (outcomes.some((o) => o.ok)) {
    await noteEndpointOutcome(db, endpointId, true, latest.at);
    return;
  }
  const earliest = outcomes.reduce((a, b) => (b.at < a.at ? b : a));
  const failingSince = await noteEndpointOutcome(db, endpointId, false, earliest.at);
  if (failingSince && latest.at.getTime() - failingSince.getTime() >= DISABLE_AFTER_MS) await setEndpointEnabled(db, endpointId, false, 'failing');
}
