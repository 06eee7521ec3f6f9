import { createAppealsActivities } from './appeals.js';
import { createBankActivities } from './bank.js';
import type { ActivityDeps } from './deps.js';
import { createLevelRanksActivities } from './levelRanks.js';
import { createLevelsActivities } from './levels.js';
import { createMaintenanceActivities } from './maintenance.js';
import { createModerationActivities } from './moderation.js';
import { createWebhookActivities } from './webhooks.js';

export type { ActivityDeps };

/** Every activity of every area, registered on the worker under these names. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createAppealsActivities(deps),
    ...createBankActivities(deps),
    ...createLevelsActivities(deps),
    ...createLevelRanksActivities(deps),
    ...createMaintenanceActivities(deps),
    ...createModerationActivities(deps),
    ...createWebhookActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
