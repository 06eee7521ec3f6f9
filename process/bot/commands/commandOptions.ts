import type { APIApplicationCommandInteractionDataOption, APIInteractionDataResolved, APIGuildMember } from 'discord-api-types/v10';
import type { PlatformMember } from '../../../src/core/platform.js';
import { toMember } from '../../../src/platform/discord/discordShapes.js';

type Leaf = { name: string; type: number; value?: string | number | boolean; focused?: boolean; options?: Leaf[] };

/** A command's option values by name (the sub-command's, when it has one), with the users they name resolved. */
export class CommandOptions {
  private readonly values = new Map<string, string | number | boolean>();
  /** The sub-command used (`/giveaway start`: `start`). */
  readonly subcommand: string | undefined;
  /** The option the member is typing (autocomplete). */
  readonly focused: string | undefined;

  constructor(
    private readonly guildId: string,
    options: APIApplicationCommandInteractionDataOption[] | undefined,
    private readonly resolved: APIInteractionDataResolved | undefined,
  ) {
    let leaves = (options ?? []) as unknown as Leaf[];
    const sub = leaves.find((o) => o.type === 1 || o.type === 2);
    if (sub?.type === 2) leaves = sub.options ?? [];
    const inner = leaves.find((o) => o.type === 1);
    this.subcommand = inner?.name ?? sub?.name;
    if (inner ?? sub) leaves = (inner ?? sub)!.options ?? [];
    for (const o of leaves) if (o.value !== undefined) this.values.set(o.name, o.value);
    this.focused = leaves.find((o) => o.focused)?.name;
  }

  string(name: string): string | undefined {
    const v = this.values.get(name);
    return v === undefined ? undefined : String(v);
  }

  integer(name: string): number | undefined {
    const v = this.values.get(name);
    return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
  }

  /** A user option: the user's id, and the member when they are in the server. */
  user(name: string): { userId: string; member: PlatformMember | null } | undefined {
    const id = this.string(name);
    if (id === undefined) return undefined;
    return { userId: id, member: resolvedMember(this.guildId, this.resolved, id) };
  }
}

/** A member the interaction resolved (Discord sends the member without its user, and the user beside it). */
export function resolvedMember(guildId: string, resolved: APIInteractionDataResolved | undefined, userId: string): PlatformMember | null {
  const member = resolved?.members?.[userId];
  const user = resolved?.users?.[userId];
  return member && user ? toMember(guildId, { ...member, user, deaf: false, mute: false } as unknown as APIGuildMember) : null;
}
