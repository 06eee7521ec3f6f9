import type { Feature } from '../../../src/core/features.js';
import type { PlatformMember } from '../../../src/core/platform.js';
import type { CommandDefinition } from '../../../src/platform/discord/applicationCommands.js';
import type { InteractionRef } from '../../../src/platform/discord/interactionReplies.js';
import type { BotDeps } from '../handler.js';
import type { CommandOptions } from './commandOptions.js';

/** A message a context menu was used on, as the interaction resolves it. */
export interface TargetMessage {
  id: string;
  channelId: string;
  authorId: string;
  content: string;
}

/** One use of a command in a server, read from the interaction (the only place Discord's payload is seen). */
export interface CommandUse {
  deps: BotDeps;
  ref: InteractionRef;
  interactionId: string;
  guildId: string;
  channelId: string;
  userId: string;
  member: PlatformMember;
  /** What the invoker may do in the channel, as Discord computed it for this interaction (member.permissions). */
  permissions: bigint;
  options: CommandOptions;
  /** The user a user context menu was used on. */
  targetUser?: { userId: string; member: PlatformMember | null };
  targetMessage?: TargetMessage;
}

export interface Choice {
  name: string;
  value: string;
}

/**
 * One application command: its definition (registered by `discord commands sync`) and its handling. Each calls the
 * use case the REST API's route calls, so one rule serves both doors.
 */
export interface BotCommand {
  /** Name, description and options; contexts and default_member_permissions are added from `requires` (commandTable.ts). */
  definition: CommandDefinition;
  /** The feature that must be on in the server (or the one the options pick); off, the command answers so and does nothing. */
  feature?: Feature | ((options: CommandOptions) => Feature);
  /**
   * Permissions the invoker must hold (and their name as Discord shows it). Discord hides the command from others
   * (default_member_permissions), but a server can open it to anyone in its Integrations settings, so the bot checks
   * them again on every use.
   */
  requires?: { permission: bigint; name: string };
  /** The command claims the interaction in its own write's transaction (a replay then acts and answers once). */
  claimsItself?: boolean;
  /** The answer's text, ephemeral (null: an earlier handling of the same interaction acted and answered). */
  run?(use: CommandUse): Promise<string | null>;
  /** A command whose first answer is not text (a dialog) answers itself. */
  respond?(use: CommandUse): Promise<void>;
  /** Suggestions for the option the member is typing (at most 25). */
  complete?(use: CommandUse, typed: string): Promise<Choice[]>;
}
