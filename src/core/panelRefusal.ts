import { Refusal } from './refusal.js';

/** Why a panel (ticket or application) cannot be posted as asked; nothing was posted or stored. */
export class PanelRefusal extends Refusal<
  | 'GUILD_NOT_FOUND'
  | 'FEATURE_DISABLED'
  | 'PANEL_NOT_FOUND'
  | 'PANEL_EXISTS'
  | 'INVALID_PANEL'
  | 'UNKNOWN_CHANNEL'
  | 'UNKNOWN_CATEGORY'
  | 'UNKNOWN_ROLE'
  | 'FORM_NOT_FOUND'
  | 'TOO_MANY_BUTTONS'
> {}
