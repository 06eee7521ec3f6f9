import type { Kysely } from 'kysely';
import type { AuditActor } from '../../db/shared/audit.js';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../../src/core/clock.js';
import type { PanelOutcome } from '../../src/core/panelMessages.js';
import type { Platform } from '../../src/core/platform.js';
import { snowflake, type FlagSpec } from './args.js';
import { defineCommand, GUILD_FLAG, OPERATOR_FLAG, operatorActor, type AdminCommand, type AdminContext, type CommandOutput } from './command.js';
import { PANEL_FLAG, panelNumber, panelPlatform } from './panelFlags.js';

/** The flags a panel command's run gets: its settings, each optional on update. */
export type PanelFlags<S extends FlagSpec> = { [K in keyof S]: string | undefined } & { guild: string; panel: string; operator?: string };

export interface PanelPublishing<Change> {
  guildId: string;
  panelId: number;
  change: Change;
  mode: 'post' | 'update';
  actor: AuditActor;
}

export interface PanelCommandsSpec<S extends FlagSpec, Change, Panel> {
  settings: S;
  /** The settings a post must name (an update keeps what it does not name). */
  requiredOnPost: ReadonlyArray<keyof S & string>;
  summary: { post: string; update: string };
  /** The settings' flags, parsed into the use case's change. */
  change(flags: PanelFlags<S>): Change;
  /** The use case the console calls too. */
  publish(
    deps: { db: Kysely<Database>; platform: Platform; clock: Clock },
    p: PanelPublishing<Change>,
  ): Promise<{ panel: Panel; outcome: PanelOutcome }>;
  output(panel: Panel, outcome: PanelOutcome, p: { guildId: string; panelId: number }): CommandOutput;
}

/**
 * `panel post` and `panel update` of a kind of panel (tickets, applications): the message posted by the bot (Discord
 * shows buttons only on its own messages) and edited in place after that, on the platform panels are posted on,
 * with the operator as the audit actor.
 */
export function panelCommands<S extends FlagSpec, Change, Panel>(spec: PanelCommandsSpec<S, Change, Panel>): AdminCommand[] {
  const run = async (flags: PanelFlags<S>, ctx: AdminContext, mode: 'post' | 'update') => {
    const guildId = snowflake(flags.guild, 'guild');
    const panelId = panelNumber(flags.panel);
    const change = spec.change(flags);
    const { panel, outcome } = await spec.publish(
      { db: ctx.db, platform: panelPlatform(ctx), clock: ctx.clock },
      { guildId, panelId, change, mode, actor: operatorActor(ctx, flags.operator) },
    );
    return spec.output(panel, outcome, { guildId, panelId });
  };
  const required = Object.fromEntries(spec.requiredOnPost.map((name) => [name, { ...spec.settings[name]!, required: true }]));
  return [
    defineCommand({
      name: 'panel post',
      summary: spec.summary.post,
      flags: { ...GUILD_FLAG, ...PANEL_FLAG, ...spec.settings, ...required, ...OPERATOR_FLAG },
      run: (flags, ctx) => run(flags as unknown as PanelFlags<S>, ctx, 'post'),
    }),
    defineCommand({
      name: 'panel update',
      summary: spec.summary.update,
      flags: { ...GUILD_FLAG, ...PANEL_FLAG, ...spec.settings, ...OPERATOR_FLAG },
      run: (flags, ctx) => run(flags as unknown as PanelFlags<S>, ctx, 'update'),
    }),
  ];
}
