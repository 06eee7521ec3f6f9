import { patched, proxyActivities } from '@temporalio/workflow';
import type { BankActivities } from '../activities/bank.js';
import type { RefusalCode } from '../src/core/errorCodes.js';
import { DAY_LONG_PLATFORM_EFFECT } from './activityProfiles.js';
import { refusalCode } from './refusalCode.js';

// The bank's part of an event batch (workflows/webhookBatch.ts runs it beside the webhook deliveries).

const { postBankLogs } = proxyActivities<BankActivities>(DAY_LONG_PLATFORM_EFFECT);

const BANK_LOG_REFUSAL_PATCH = 'webhook-batch-bank-log-refusal';
const BANK_LOG_RESUME_PATCH = 'webhook-batch-bank-log-resume';

/**
 * The bank log post from patch `webhook-batch-bank-log-resume` on: it heartbeats each posted line, so a try that
 * timed out or failed mid-way resumes after the last line the server heard of (src/bank/batchBankLog.ts) and a dead
 * worker is noticed in seconds; one try may then take as long as the platform needs for a full batch (Discord's
 * per-channel rate limit), where 30 s of posting used to end in a timeout and a retry from the first line.
 */
const RESUMING_BANK_LOG_POST = { ...DAY_LONG_PLATFORM_EFFECT, startToCloseTimeout: '10 minutes', heartbeatTimeout: '15 seconds' };

/**
 * Posts the batch's bank log lines; a post the platform refuses for good (Discord: the bot may not post in the log
 * channel) answers its refusal code instead of failing the batch. Runs from before the Discord adapter could not get
 * a refusal (the local platform never refuses), so theirs fail as they did.
 */
export function postBatchBankLog(batchId: number): Promise<RefusalCode | undefined> {
  return postBankLogsOf(batchId).then(() => undefined, unlessRefused);
}

function postBankLogsOf(batchId: number): Promise<number> {
  if (!patched(BANK_LOG_RESUME_PATCH)) return postBankLogs(batchId);
  return postBankLogs.executeWithOptions({ ...RESUMING_BANK_LOG_POST, summary: `bank log lines of batch ${batchId}` }, [batchId]);
}

function unlessRefused(err: unknown) {
  if (!patched(BANK_LOG_REFUSAL_PATCH)) throw err;
  return refusalCode(err);
}
