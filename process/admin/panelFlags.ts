import type { Platform } from '../../src/core/platform.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { snowflake, wholeNumber } from './args.js';
import type { AdminContext } from './command.js';

// What the panel commands (tickets panel, applications panel; panelCommands.ts) share: the panel number, the
// platform they post on, the id flags.

export const PANEL_FLAG = { panel: { type: 'string', placeholder: 'N', required: true, help: 'the panel number (1 to 999,999,999; its button names it)' } } as const;

export const panelNumber = (value: string) => wholeNumber(value, 'panel', 1, 999_999_999);

/** The platform panels are posted on: Discord with PLATFORM=discord, else the local tables. */
export const panelPlatform = (ctx: AdminContext): Platform => ctx.platform ?? createLocalPlatform(ctx.db);

/** `none` clears an optional id; anything else must be a snowflake. */
export const idOrNone = (value: string, flag: string) => (value === 'none' ? null : snowflake(value, flag));

/** A comma-separated list of snowflakes; `none` is the empty list. */
export const idList = (value: string, flag: string) => (value === 'none' ? [] : value.split(',').map((v) => snowflake(v.trim(), flag)));
