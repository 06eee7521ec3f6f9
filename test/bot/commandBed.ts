import { expect } from 'vitest';
import type { GuildRecord } from '../../db/guild/guilds.js';
import type { BotDeps } from '../../process/bot/handler.js';
import { COMMAND_DEFINITIONS } from '../../process/bot/commands/commandTable.js';
import { addMember, autocompleteInteraction, commandInteraction, type CommandUse, type FakeInteractionAnswer } from '../../process/infra/fakeDiscord/index.js';
import { changeGuild } from '../../src/guild/guildManagement.js';
import { createApplicationCommands } from '../../src/platform/discord/applicationCommands.js';
import { fakeDiscordRest } from '../harness/fakeDiscordRest.js';
import { syncCommands } from '../../src/platform/discord/commandSync.js';
import type { TestDatabase } from '../harness/database.js';
import { snowflake } from '../harness/fixtures.js';
import { startBotBedOnServer, type BotBed } from './botHarness.js';
import type { FakeServer } from './fakeServer.js';

// A bot on a fake Discord server whose commands were synced (as `discord commands sync` registers them), and the
// commands used there as Discord's client sends them: through the fake gateway, answered on the fake's endpoints.

export interface CommandBed {
  bed: BotBed;
  server: FakeServer;
  /** A new member of the server on Discord (in the fake), holding `roles`. */
  member(roles?: string[]): string;
  /** Uses the command and waits until the bot handled it; returns the payload. */
  use(use: Omit<CommandUse, 'guildId'>): Promise<ReturnType<typeof commandInteraction>>;
  /** Uses the command and returns the text answered (directly, or edited in after a deferral). */
  answer(use: Omit<CommandUse, 'guildId'>): Promise<string>;
  /** The suggestions answered while the member types `focused`. */
  suggestions(use: Omit<CommandUse, 'guildId'> & { focused: string }): Promise<Array<{ name: string; value: string }>>;
  setFeatures(features: GuildRecord['features']): Promise<void>;
}

/** The text of the last answer to an interaction: a callback's message or the edit of the deferred one. */
export function answerText(answers: FakeInteractionAnswer[]): string {
  const last = answers.at(-1);
  expect(last, 'the interaction was answered').toBeDefined();
  const body = last!.body as { data?: { content?: string }; content?: string };
  return (last!.kind === 'edit' ? body.content : body.data?.content) ?? '';
}

/** `depOverrides`: the bot's dependencies a test sets (a Temporal client on the test worker's task queue). */
export async function startCommandBed(database: TestDatabase, now: Date, features: GuildRecord['features'], depOverrides: Partial<BotDeps> = {}): Promise<CommandBed> {
  const { bed, server } = await startBotBedOnServer(database, now, features, depOverrides);
  await syncCommands(createApplicationCommands(fakeDiscordRest(bed.fake)), [...COMMAND_DEFINITIONS]);
  const guild = bed.fake.state.guilds.get(server.id)!;
  const use = async (u: Omit<CommandUse, 'guildId'>) => {
    const payload = commandInteraction(bed.fake.state, { channelId: server.channels.general, at: bed.clock.now(), ...u, guildId: server.id });
    await bed.dispatch('INTERACTION_CREATE', payload);
    return payload;
  };
  return {
    bed,
    server,
    member(roles = []) {
      const id = snowflake();
      addMember(bed.fake.state, guild, { id, username: `member${id.slice(-4)}`, roles });
      return id;
    },
    use,
    answer: async (u) => answerText(bed.answersTo((await use(u)).token)),
    async suggestions(u) {
      const payload = autocompleteInteraction(bed.fake.state, { channelId: server.channels.general, at: bed.clock.now(), ...u, guildId: server.id });
      await bed.dispatch('INTERACTION_CREATE', payload);
      const [answer] = bed.answersTo(payload.token);
      expect((answer?.body as { type: number }).type).toBe(8);
      return (answer!.body as { data: { choices: Array<{ name: string; value: string }> } }).data.choices;
    },
    setFeatures: (f) => changeGuild(database.db, server.id, { features: f }, { type: 'system' }).then(() => undefined),
  };
}
