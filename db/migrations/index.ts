import type { Migration } from 'kysely';
import * as foundation from './2026-11-22-001-foundation.js';
import * as bankIdempotencyEvents from './2026-11-22-002-bank-idempotency-events.js';
import * as levels from './2026-11-22-003-levels.js';
import * as unloggedRateLimits from './2026-11-22-004-unlogged-rate-limits.js';
import * as levelRankSnapshots from './2026-11-22-005-level-rank-snapshots.js';
import * as webhooks from './2026-11-22-006-webhooks.js';
import * as moderation from './2026-11-22-007-moderation.js';
import * as appeals from './2026-11-22-008-appeals.js';
import * as idempotencyResponseText from './2026-11-24-001-idempotency-response-text.js';
import * as tickets from './2026-11-24-002-tickets.js';
import * as applications from './2026-11-24-003-applications.js';
import * as invites from './2026-11-24-004-invites.js';
import * as ticketClose from './2026-11-24-005-ticket-close.js';
import * as platformMessageEdits from './2026-11-24-006-platform-message-edits.js';
import * as giveaways from './2026-11-24-010-giveaways.js';
import * as flows from './2026-11-24-020-flows.js';
import * as shop from './2026-11-24-030-shop.js';
import * as webhookBatches from './2026-11-24-040-webhook-batches.js';
import * as applicationReviewMessages from './2026-11-24-050-application-review-messages.js';
import * as inviteScoreCounts from './2026-11-24-051-invite-score-counts.js';
import * as inviteRankDirty from './2026-11-24-052-invite-rank-dirty.js';
import * as inviteRankMemberIndex from './2026-11-24-053-invite-rank-member-index.js';
import * as levelRankMemberIndex from './2026-11-24-054-level-rank-member-index.js';
import * as modActionTarget from './2026-11-25-001-mod-action-target.js';
import * as levelCountedMessages from './2026-11-25-002-level-counted-messages.js';
import * as botMessageIngest from './2026-11-25-010-bot-message-ingest.js';
import * as credentialChanges from './2026-11-25-010-credential-changes.js';
import * as inviteSnapshots from './2026-11-25-010-invite-snapshots.js';
import * as handledInteractions from './2026-11-25-011-handled-interactions.js';
import * as consoleSessions from './2026-11-25-020-console-sessions.js';
import * as ingestPurgeIndexes from './2026-11-25-030-ingest-purge-indexes.js';
import * as giveawayEndBatch from './2026-11-26-010-giveaway-end-batch.js';
import * as flowRunDurationBigint from './2026-11-27-010-flow-run-duration-bigint.js';
import * as webhookEndpointConsole from './2026-11-27-060-webhook-endpoint-console.js';
import * as consoleSignInBrowser from './2026-11-28-010-console-sign-in-browser.js';
import * as consoleForms from './2026-11-28-020-console-forms.js';
import * as apiKeyRolls from './2026-11-28-030-api-key-rolls.js';
import * as gatewaySessions from './2026-11-28-040-gateway-sessions.js';
import * as platformGuildLeft from './2026-11-28-050-platform-guild-left.js';
import * as modActionModerator from './2026-11-29-005-mod-action-moderator.js';
import * as panels from './2026-11-29-010-panels.js';
import * as platformButtons from './2026-11-29-010-platform-buttons.js';
import * as platformBlocks from './2026-11-29-030-platform-blocks.js';
import * as identifySlots from './2026-11-29-040-identify-slots.js';
import * as levelUpEffects from './2026-11-29-050-level-up-effects.js';
import * as retentionIndexes from './2026-11-29-070-retention-indexes.js';
import * as flowRunIdsBigint from './2026-11-29-071-flow-run-ids-bigint.js';
import * as levelAnnounceTarget from './2026-11-29-080-level-announce-target.js';
import * as levelUpEffectChannel from './2026-11-29-081-level-up-effect-channel.js';
import * as flowRunNodeOutcomes from './2026-11-30-070-flow-run-node-outcomes.js';
import * as modActionConsole from './2026-11-30-050-mod-action-console.js';
import * as levelXpRules from './2026-11-30-020-level-xp-rules.js';
import * as xpChangeConsole from './2026-11-30-021-xp-change-console.js';
import * as rankMarks from './2026-11-30-090-rank-marks.js';
import * as retentionPurgePlan from './2026-11-30-110-retention-purge-plan.js';
import * as appealMessageOrder from './2026-11-30-130-appeal-message-order.js';
import * as inviteScoreTotals from './2026-11-30-140-invite-score-totals.js';

/**
 * A migration file's exports. Each runs in a transaction of its own (with its record in kysely_migration) unless it
 * exports `transaction = false`: then each statement commits by itself, which `CREATE INDEX CONCURRENTLY` needs, and
 * `up` must be safe to run again (a failure or a lock timeout leaves what it did so far, and it is retried).
 */
export interface SchemaMigration extends Migration {
  readonly transaction?: boolean;
}

/** Every migration in order; the name is the file name, so the order is the sort order. */
export const migrations: Record<string, SchemaMigration> = {
  '2026-11-22-001-foundation': foundation,
  '2026-11-22-002-bank-idempotency-events': bankIdempotencyEvents,
  '2026-11-22-003-levels': levels,
  '2026-11-22-004-unlogged-rate-limits': unloggedRateLimits,
  '2026-11-22-005-level-rank-snapshots': levelRankSnapshots,
  '2026-11-22-006-webhooks': webhooks,
  '2026-11-22-007-moderation': moderation,
  '2026-11-22-008-appeals': appeals,
  '2026-11-24-001-idempotency-response-text': idempotencyResponseText,
  '2026-11-24-002-tickets': tickets,
  '2026-11-24-003-applications': applications,
  '2026-11-24-004-invites': invites,
  '2026-11-24-005-ticket-close': ticketClose,
  '2026-11-24-006-platform-message-edits': platformMessageEdits,
  '2026-11-24-010-giveaways': giveaways,
  '2026-11-24-020-flows': flows,
  '2026-11-24-030-shop': shop,
  '2026-11-24-040-webhook-batches': webhookBatches,
  '2026-11-24-050-application-review-messages': applicationReviewMessages,
  '2026-11-24-051-invite-score-counts': inviteScoreCounts,
  '2026-11-24-052-invite-rank-dirty': inviteRankDirty,
  '2026-11-24-053-invite-rank-member-index': inviteRankMemberIndex,
  '2026-11-24-054-level-rank-member-index': levelRankMemberIndex,
  '2026-11-25-001-mod-action-target': modActionTarget,
  '2026-11-25-002-level-counted-messages': levelCountedMessages,
  '2026-11-25-010-bot-message-ingest': botMessageIngest,
  '2026-11-25-010-credential-changes': credentialChanges,
  '2026-11-25-010-invite-snapshots': inviteSnapshots,
  '2026-11-25-011-handled-interactions': handledInteractions,
  '2026-11-25-020-console-sessions': consoleSessions,
  '2026-11-25-030-ingest-purge-indexes': ingestPurgeIndexes,
  '2026-11-26-010-giveaway-end-batch': giveawayEndBatch,
  '2026-11-27-010-flow-run-duration-bigint': flowRunDurationBigint,
  '2026-11-27-060-webhook-endpoint-console': webhookEndpointConsole,
  '2026-11-28-010-console-sign-in-browser': consoleSignInBrowser,
  '2026-11-28-020-console-forms': consoleForms,
  '2026-11-28-030-api-key-rolls': apiKeyRolls,
  '2026-11-28-040-gateway-sessions': gatewaySessions,
  '2026-11-28-050-platform-guild-left': platformGuildLeft,
  '2026-11-29-005-mod-action-moderator': modActionModerator,
  '2026-11-29-010-panels': panels,
  '2026-11-29-010-platform-buttons': platformButtons,
  '2026-11-29-030-platform-blocks': platformBlocks,
  '2026-11-29-040-identify-slots': identifySlots,
  '2026-11-29-050-level-up-effects': levelUpEffects,
  '2026-11-29-070-retention-indexes': retentionIndexes,
  '2026-11-29-071-flow-run-ids-bigint': flowRunIdsBigint,
  '2026-11-29-080-level-announce-target': levelAnnounceTarget,
  '2026-11-29-081-level-up-effect-channel': levelUpEffectChannel,
  '2026-11-30-020-level-xp-rules': levelXpRules,
  '2026-11-30-021-xp-change-console': xpChangeConsole,
  '2026-11-30-050-mod-action-console': modActionConsole,
  '2026-11-30-070-flow-run-node-outcomes': flowRunNodeOutcomes,
  '2026-11-30-090-rank-marks': rankMarks,
  '2026-11-30-110-retention-purge-plan': retentionPurgePlan,
  '2026-11-30-130-appeal-message-order': appealMessageOrder,
  '2026-11-30-140-invite-score-totals': inviteScoreTotals,
};
