// Every workflow type the worker runs; the bundler starts from this file (see process/worker.ts).
export { eventFanout } from './eventFanout.js';
export { purgeExpiredRecords } from './purgeExpiredRecords.js';
export { xpChange } from './xpChange.js';
export { refreshLevelRanks } from './refreshLevelRanks.js';
export { webhookDelivery } from './webhookDelivery.js';
export { webhookBatch } from './webhookBatch.js';
export { moderationAction } from './moderationAction.js';
export { appealDecision } from './appealDecision.js';
export { inviteMilestones } from './inviteMilestones.js';
export { refreshInviteRanks } from './refreshInviteRanks.js';
export { applicationDecision } from './applicationDecision.js';
export { ticketClose } from './ticketClose.js';
export { purchaseEffects } from './purchaseEffects.js';
export { purchaseRefund } from './purchaseRefund.js';
export { flowRun } from './flowRun.js';
export { giveaway } from './giveaway.js';
export { giveawayEnds } from './giveawayEnds.js';
