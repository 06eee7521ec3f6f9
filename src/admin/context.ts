import type { Kysely } from 'kysely';
import type { AuditActor } from '../../db/audit.js';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import type { AdminIo } from './io.js';

export interface AdminContext {
  db: Kysely<Database>;
  clock: Clock;
  io: AdminIo;
  /** Who the audit log names for changes made from the CLI. */
  operator: AuditActor;
}

export type AdminCommand = (argv: string[], ctx: AdminContext) => Promise<void>;
