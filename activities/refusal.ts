import { ApplicationFailure } from '@temporalio/common';
import type { RefusalCode } from '../src/core/errorCodes.js';

/** A domain refusal: never retried, and its type is the code the workflow reports (workflows/refusalCode.ts). */
export const refuse = (code: RefusalCode, message: string) => ApplicationFailure.nonRetryable(message, code);
