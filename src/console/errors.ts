import { Refusal } from '../core/refusal.js';

export type ConsoleRefusalCode =
  | 'SIGN_IN_REQUIRED'
  | 'CSRF_TOKEN_INVALID'
  | 'CROSS_ORIGIN_REQUEST'
  | 'NOT_A_SERVER_MANAGER'
  | 'SIGN_IN_FAILED'
  | 'SIGN_IN_UNAVAILABLE'
  | 'INVALID_INPUT'
  | 'FORM_TOKEN_INVALID'
  | 'FORM_STILL_SENDING'
  | 'PAGE_NOT_FOUND';

/** Why the console refuses a request; the console's error page shows the code and message, never more. */
export class ConsoleRefusal extends Refusal<ConsoleRefusalCode> {}

export const CONSOLE_REFUSAL_STATUS: Record<ConsoleRefusalCode, number> = {
  SIGN_IN_REQUIRED: 401,
  CSRF_TOKEN_INVALID: 403,
  CROSS_ORIGIN_REQUEST: 403,
  NOT_A_SERVER_MANAGER: 403,
  SIGN_IN_FAILED: 400,
  SIGN_IN_UNAVAILABLE: 404,
  INVALID_INPUT: 400,
  FORM_TOKEN_INVALID: 400,
  FORM_STILL_SENDING: 409,
  PAGE_NOT_FOUND: 404,
};
