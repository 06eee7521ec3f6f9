import type { Kysely } from 'kysely';
import { findXpChange, type XpChangeRecord } from '../../db/levels/xpChanges.js';
import type { Database } from '../../db/schema.js';
import { xpChangeNotFound } from '../core/errors.js';
import type { Clock } from '../core/clock.js';
import type { TemporalGateway } from '../core/temporal/gateway.js';
import { readPolledStatus } from '../core/temporal/polledStatus.js';
import type { XpChangeBody } from './contract.js';
import { xpChangeStatus, type XpChangeStatus } from './xpChangeOperation.js';

function toXpChangeBody(record: XpChangeRecord, status: XpChangeStatus): XpChangeBody {
  return {
    changeId: record.changeId,
    userId: record.userId,
    type: record.type,
    unit: record.unit,
    amount: record.amount,
    ...status,
    createdAt: record.createdAt.toISOString(),
    processedAt: record.processedAt?.toISOString() ?? null,
  };
}

/** A change just accepted: its workflow starts after the commit. */
export const pendingXpChangeBody = (record: XpChangeRecord): XpChangeBody => toXpChangeBody(record, { status: 'pending', result: null, error: null });

/**
 * How long after its acceptance a change's record alone answers its polls. The record follows the change (`pending`,
 * `processing` once applied with its level moved, `done` or `failed`); only a run that closed without an outcome (an
 * operator ended it) needs the run read (describe), and a client polling a fresh change many times a second made
 * those reads a load on Temporal of their own. Past this, a change still under way is read from its run as well.
 */
export const RECORD_ANSWERS_FOR_MS = 5_000;

/** Who reads a change: the API key that asked for it, or the server's managers in the console (changes asked there). */
export type XpChangeReader = { guildId: string } & ({ apiKeyId: number } | { console: true });

const mayRead = (reader: XpChangeReader, record: XpChangeRecord): boolean =>
  record.guildId === reader.guildId && ('apiKeyId' in reader ? 'apiKeyId' in record.asker && record.asker.apiKeyId === reader.apiKeyId : 'consoleUserId' in record.asker);

type Deps = { db: Kysely<Database>; temporal: TemporalGateway; clock: Clock };

/** The record a reader may see, and the body its status gives (see readXpChange). */
async function readChange(deps: Deps, reader: XpChangeReader, changeId: string): Promise<{ record: XpChangeRecord; body: XpChangeBody }> {
  const record = await findXpChange(deps.db, changeId);
  if (!record || !mayRead(reader, record)) throw xpChangeNotFound();
  const fresh = deps.clock.now().getTime() - record.createdAt.getTime() < RECORD_ANSWERS_FOR_MS;
  return { record, body: toXpChangeBody(record, fresh ? recordStatus(record) : await readPolledStatus(deps.temporal, xpChangeStatus, record)) };
}

/**
 * An XP change and its status: the durable record once it ended or while it is fresh, the workflow after that. Only
 * the API key that asked sees it (the console only changes asked in the console); any other gets XP_CHANGE_NOT_FOUND.
 */
export async function readXpChange(deps: Deps, reader: XpChangeReader, changeId: string): Promise<XpChangeBody> {
  return (await readChange(deps, reader, changeId)).body;
}

/**
 * A change asked in the console, as the console's page shows it: the API's body, and what the API's body leaves out
 * but the manager reading it wants to know (its reason, and which manager asked).
 */
export async function readConsoleXpChange(deps: Deps, guildId: string, changeId: string): Promise<{ change: XpChangeBody; reason: string | null; askedBy: string | null }> {
  const { record, body } = await readChange(deps, { guildId, console: true }, changeId);
  return { change: body, reason: record.reason, askedBy: 'consoleUserId' in record.asker ? record.asker.consoleUserId : null };
}

/** The status the record gives; the result is shown once done, as a run's status shows it. */
const recordStatus = (record: XpChangeRecord): XpChangeStatus =>
  xpChangeStatus.settled(record) ?? { status: record.status, result: null, error: null };
