// Written with the event, in its transaction (db/shared/events.ts), so it lives in the db layer.
export { deliveryBody } from '../../db/webhooks/deliveryBody.js';

/** An endpoint failing this long without a success is disabled. */
export const DISABLE_AFTER_MS = 24 * 60 * 60 * 1000;
/** Bytes of a receiver's answer kept in the attempt log. */
export const RESPONSE_EXCERPT_BYTES = 1024;
export const ATTEMPT_TIMEOUT_MS = 10_000;
