import { Refusal } from '../core/refusal.js';

/** A bot-origin application action the rules refuse (the CLI prints its code; a platform adapter will answer the user). */
export class ApplicationRefusal extends Refusal<
  | 'GUILD_NOT_FOUND'
  | 'FEATURE_DISABLED'
  | 'FORM_NOT_FOUND'
  | 'FORM_CLOSED'
  | 'INVALID_FORM'
  | 'INVALID_ANSWERS'
  | 'APPLICATION_ALREADY_OPEN'
  | 'REAPPLY_COOLDOWN'
  | 'APPLICATION_NOT_FOUND'
  | 'APPLICATION_NOT_OPEN'
> {}
