import { createAppealsActivities } from '../activities/appeals.js';
import { createApplicationsActivities } from '../activities/applications.js';
import { createBankActivities } from '../activities/bank.js';
import { createKeysActivities } from '../activities/keys.js';
import { createLevelsActivities } from '../activities/levels.js';
import { createModerationActivities } from '../activities/moderation.js';
import { createWebhooksActivities } from '../activities/webhooks.js';
import { appealsRoutes } from '../api/routes/appeals.js';
import { applicationsRoutes } from '../api/routes/applications.js';
import { ticketsRoutes } from '../api/routes/tickets.js';
import { createTicketsActivities } from '../activities/tickets.js';
import { ticketCloseOperation } from '../src/tickets/ticketCloseOperation.js';
import { ticketCloseWorkflow } from '../src/tickets/ids.js';
import { bankRoutes } from '../api/routes/bank.js';
import { guildRoutes } from '../api/routes/guild.js';
import { invitesRoutes } from '../api/routes/invites.js';
import { createInvitesActivities } from '../activities/invites.js';
import { inviteMilestonesWorkflow, refreshInviteRanksWorkflow } from '../src/invites/ids.js';
import { RETIRED_INVITE_RANKS_SCHEDULE_ID } from '../src/invites/schedules.js';
import { milestoneOperation } from '../src/invites/milestoneOperation.js';
import { levelsRoutes } from '../api/routes/levels.js';
import { moderationRoutes } from '../api/routes/moderation.js';
import { appealDecisionOperation } from '../src/appeals/appealDecisionOperation.js';
import { appealDecisionWorkflow } from '../src/appeals/ids.js';
import { applicationDecisionOperation } from '../src/applications/applicationDecisionOperation.js';
import { applicationDecisionWorkflow } from '../src/applications/ids.js';
import { relayUnstartedBatches } from '../src/events/batchLaunch.js';
import { eventFanoutWorkflow, webhookBatchWorkflow } from '../src/events/ids.js';
import { purgeExpiredRecordsWorkflow, retentionPurgeDispatcherWorkflow } from '../src/keys/ids.js';
import { relayPurgeRequests, relayRecordsComingDue, wakeRetentionPurgerAtStart } from '../src/keys/purgeDispatcher.js';
import { RETIRED_PURGE_SCHEDULE_ID } from '../src/keys/schedules.js';
import { levelUpEffectsWorkflow, refreshLevelRanksWorkflow, xpChangeWorkflow } from '../src/levels/ids.js';
import { relayLevelUpEffects } from '../src/levels/levelUpEffectsOperation.js';
import { RETIRED_LEVEL_RANKS_SCHEDULE_ID } from '../src/levels/schedules.js';
import { createRanksActivities } from '../activities/ranks.js';
import { rankRecountDispatcherWorkflow } from '../src/ranks/ids.js';
import { relayGrownServers, relayRankWakes, wakeRankRecounterAtStart } from '../src/ranks/recountDispatcher.js';
import { xpChangeOperation } from '../src/levels/xpChangeOperation.js';
import { moderationActionWorkflow } from '../src/moderation/ids.js';
import { modActionOperation } from '../src/moderation/modActionOperation.js';
import { relayDeliveryRetries } from '../src/webhooks/deliveryRelay.js';
import { webhookDeliveryWorkflow } from '../src/webhooks/ids.js';
import { shopRoutes } from '../api/routes/shop.js';
import { createShopActivities } from '../activities/shop.js';
import { purchaseEffectsWorkflow, purchaseRefundWorkflow } from '../src/shop/ids.js';
import { purchaseEffectsOperation, purchaseRefundOperation } from '../src/shop/purchaseOperations.js';
import { flowsRoutes } from '../api/routes/flows.js';
import { createFlowsActivities } from '../activities/flows.js';
import { flowRunWorkflow } from '../src/flows/ids.js';
import { flowRunOperation } from '../src/flows/flowRunOperation.js';
import { relayFlowEvents } from '../src/flows/eventTrigger.js';
import { giveawaysRoutes } from '../api/routes/giveaways.js';
import { createGiveawaysActivities } from '../activities/giveaways.js';
import { giveawayEndDispatcherWorkflow, giveawayEndsWorkflow, giveawayWorkflow } from '../src/giveaways/ids.js';
import { wakeEndDispatcherAtStart } from '../src/giveaways/endDispatcher.js';
import { giveawayOperation } from '../src/giveaways/giveawayOperation.js';
import { relayGiveawayCancels, relayGiveawayCloses } from '../src/giveaways/cancelRelay.js';
import { RETIRED_GIVEAWAY_ENDS_SCHEDULE_ID } from '../src/giveaways/schedules.js';
import { relayOf, type AreaModule } from './area.js';

/** The one list of areas: the api mounts their routes, the worker registers the rest. */
export const AREAS: AreaModule[] = [
  { name: 'guild', routes: guildRoutes },
  // The retention purge (docs/retention.md): a dispatcher asleep until a record comes due.
  {
    name: 'keys',
    activities: createKeysActivities,
    relays: [relayRecordsComingDue(), relayPurgeRequests],
    retiredSchedules: [RETIRED_PURGE_SCHEDULE_ID],
    atWorkerStart: [wakeRetentionPurgerAtStart],
    // purgeExpiredRecords: the retired schedule's workflow, for the runs it started before an upgrade deleted it.
    workflows: [retentionPurgeDispatcherWorkflow, purgeExpiredRecordsWorkflow],
  },
  { name: 'bank', routes: bankRoutes, activities: createBankActivities },
  {
    name: 'levels',
    routes: levelsRoutes,
    activities: createLevelsActivities,
    relays: [relayOf(xpChangeOperation), relayLevelUpEffects],
    // refreshLevelRanks: the retired schedule's workflow, for the runs it started before an upgrade deleted it.
    workflows: [xpChangeWorkflow, levelUpEffectsWorkflow, refreshLevelRanksWorkflow],
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
  {
    name: 'applications',
    routes: applicationsRoutes,
    activities: createApplicationsActivities,
    relays: [relayOf(applicationDecisionOperation)],
    workflows: [applicationDecisionWorkflow],
  },
  {
    name: 'tickets',
    routes: ticketsRoutes,
    activities: createTicketsActivities,
    relays: [relayOf(ticketCloseOperation)],
    workflows: [ticketCloseWorkflow],
  },
  {
    name: 'invites',
    routes: invitesRoutes,
    activities: createInvitesActivities,
    relays: [relayOf(milestoneOperation)],
    // refreshInviteRanks: the retired schedule's workflow, for the runs it started before an upgrade deleted it.
    workflows: [inviteMilestonesWorkflow, refreshInviteRanksWorkflow],
  },
  // The rank snapshots of large servers (levels and invites), recounted when they changed (docs/performance.md).
  {
    name: 'ranks',
    activities: createRanksActivities,
    relays: [relayGrownServers(), relayRankWakes],
    retiredSchedules: [RETIRED_LEVEL_RANKS_SCHEDULE_ID, RETIRED_INVITE_RANKS_SCHEDULE_ID],
    atWorkerStart: [wakeRankRecounterAtStart],
    workflows: [rankRecountDispatcherWorkflow],
  },
  {
    name: 'shop',
    routes: shopRoutes,
    activities: createShopActivities,
    relays: [relayOf(purchaseEffectsOperation), relayOf(purchaseRefundOperation)],
    workflows: [purchaseEffectsWorkflow, purchaseRefundWorkflow],
  },
  {
    name: 'flows',
    routes: flowsRoutes,
    activities: createFlowsActivities,
    relays: [relayOf(flowRunOperation), relayFlowEvents],
    workflows: [flowRunWorkflow],
  },
  {
    name: 'giveaways',
    routes: giveawaysRoutes,
    activities: createGiveawaysActivities,
    relays: [relayOf(giveawayOperation), relayGiveawayCancels, relayGiveawayCloses],
    retiredSchedules: [RETIRED_GIVEAWAY_ENDS_SCHEDULE_ID],
    atWorkerStart: [wakeEndDispatcherAtStart],
    // giveawayEnds: the retired schedule's workflow, for the runs it started before an upgrade deleted it.
    workflows: [giveawayWorkflow, giveawayEndDispatcherWorkflow, giveawayEndsWorkflow],
  },
  // eventFanout runs only for events whose fan-out started before batches (issue 16); new ones go in batches.
  {
    name: 'events',
    relays: [relayUnstartedBatches],
    workflows: [webhookBatchWorkflow, eventFanoutWorkflow],
  },
  {
    name: 'webhooks',
    activities: createWebhooksActivities,
    relays: [relayDeliveryRetries],
    workflows: [webhookDeliveryWorkflow],
  },
];
