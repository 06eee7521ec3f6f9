import { createAppealsActivities } from '../../activities/appeals.js';
import { createBankActivities } from '../../activities/bank.js';
import { createKeysActivities } from '../../activities/keys.js';
import { createLevelsActivities } from '../../activities/levels.js';
import { createModerationActivities } from '../../activities/moderation.js';
import { createWebhooksActivities } from '../../activities/webhooks.js';
import { appealsRoutes } from '../../api/routes/appeals.js';
import { bankRoutes } from '../../api/routes/bank.js';
import { guildRoutes } from '../../api/routes/guild.js';
import { levelsRoutes } from '../../api/routes/levels.js';
import { moderationRoutes } from '../../api/routes/moderation.js';
import { appealDecisionOperation } from '../appeals/appealDecisionOperation.js';
import { appealDecisionWorkflow } from '../appeals/ids.js';
import { fanoutOperation } from '../events/fanoutOperation.js';
import { eventFanoutWorkflow } from '../events/ids.js';
import { purgeExpiredRecordsWorkflow } from '../keys/ids.js';
import { purgeSchedule } from '../keys/schedules.js';
import { refreshLevelRanksWorkflow, xpChangeWorkflow } from '../levels/ids.js';
import { levelRanksSchedule } from '../levels/schedules.js';
import { xpChangeOperation } from '../levels/xpChangeOperation.js';
import { moderationActionWorkflow } from '../moderation/ids.js';
import { modActionOperation } from '../moderation/modActionOperation.js';
import { relayDeliveryRetries } from '../webhooks/deliveryRelay.js';
import { webhookDeliveryWorkflow } from '../webhooks/ids.js';
import { relayOf, type AreaModule } from './area.js';

/** The one list of areas: the api mounts their routes, the worker registers the rest. */
export const AREAS: AreaModule[] = [
  { name: 'guild', routes: guildRoutes },
  {
    name: 'keys',
    activities: createKeysActivities,
    schedules: [purgeSchedule],
    workflows: [purgeExpiredRecordsWorkflow],
  },
  { name: 'bank', routes: bankRoutes, activities: createBankActivities },
  {
    name: 'levels',
    routes: levelsRoutes,
    activities: createLevelsActivities,
    relays: [relayOf(xpChangeOperation)],
    schedules: [levelRanksSchedule],
    workflows: [xpChangeWorkflow, refreshLevelRanksWorkflow],
  },
  {
    name: 'moderation',
    routes: moderationRoutes,
    activities: createModerationActivities,
    relays: [relayOf(modActionOperation)],
    workflows: [moderationActionWorkflow],
  },
  {
    name: 'appeals',
    routes: appealsRoutes,
    activities: createAppealsActivities,
    relays: [relayOf(appealDecisionOperation)],
    workflows: [appealDecisionWorkflow],
  },
  { name: 'events', relays: [relayOf(fanoutOperation)], workflows: [eventFanoutWorkflow] },
  {
    name: 'webhooks',
    activities: createWebhooksActivities,
    relays: [relayDeliveryRetries],
    workflows: [webhookDeliveryWorkflow],
  },
];
