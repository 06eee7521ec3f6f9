import type { Kysely } from 'kysely';
import { listUnstartedLevelUpEffects, markLevelUpEffectStarted, type LevelUpEffectRef } from '../../db/levels/levelUpEffects.js';
import type { Database } from '../../db/schema.js';
import { relayUnstarted, type Operation, type OperationDeps } from '../core/temporal/operation.js';
import type { WorkflowOf } from '../core/temporal/workflowRef.js';
import { levelUpEffectsWorkflow, levelUpEffectsWorkflowId } from './ids.js';

/** A level reached from activity: its reward roles and announcement, applied by workflow `level-up/<guild>/<event>`. */
export const levelUpEffectsOperation: Operation<LevelUpEffectRef, WorkflowOf<typeof levelUpEffectsWorkflow>, Kysely<Database>> = {
  workflow: levelUpEffectsWorkflow,
  workflowId: (e) => levelUpEffectsWorkflowId(e.guildId, e.eventId),
  args: (e) => [{ guildId: e.guildId, eventId: e.eventId }],
  operation: () => 'levels.levelUp',
  guildId: (e) => e.guildId,
  summary: (e) => `Level ${e.level} reward roles and announcement for user ${e.userId}`,
  listUnstarted: listUnstartedLevelUpEffects,
  markStarted: markLevelUpEffectStarted,
};

/**
 * The start relay's pass over level-ups, with no grace: the bot records them and starts nothing (it holds no
 * Temporal client), so every start is the relay's and waiting for another starter would only delay the roles.
 */
export const relayLevelUpEffects = (deps: OperationDeps<Kysely<Database>>): Promise<number> =>
  relayUnstarted(deps, levelUpEffectsOperation, { graceMs: 0, batch: 200 });
