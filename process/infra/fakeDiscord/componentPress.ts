import { ChannelType, type APIMessage } from 'discord-api-types/v10';
import { interactionSnowflake, type FakeDiscordState } from './state.js';

// A member pressing a button as Discord lets them: only a button that is on a message, and only on a message the
// application itself posted (Discord shows no components on anyone else's). The INTERACTION_CREATE it sends carries
// the message, and the server and member when the message is in a server's channel (a DM's press carries the user).

export interface FakeButtonPress {
  messageId: string;
  customId: string;
  userId: string;
  /** When the member pressed it (the interaction id's time); the fake's clock by default. */
  at?: Date;
}

function buttonsOf(message: APIMessage): string[] {
  return (message.components ?? []).flatMap((row) => ((row as { components?: Array<{ custom_id?: string }> }).components ?? []).map((c) => c.custom_id ?? ''));
}

/** The INTERACTION_CREATE payload of the press; throws when Discord would show no such button to press. */
export function buttonPressPayload(state: FakeDiscordState, press: FakeButtonPress) {
  const message = state.messages.get(press.messageId);
  if (!message) throw new Error(`The fake has no message ${press.messageId} (deleted, or never posted).`);
  if (message.author.id !== state.bot.id) throw new Error(`Message ${press.messageId} is not the bot's: Discord shows no buttons on it.`);
  if (!buttonsOf(message).includes(press.customId)) throw new Error(`Message ${press.messageId} has no button "${press.customId}" (it has ${JSON.stringify(buttonsOf(message))}).`);
  const guild = [...state.guilds.values()].find((g) => g.channels.has(message.channel_id));
  const member = guild?.members.get(press.userId);
  if (guild && !member) throw new Error(`User ${press.userId} is not a member of the server where message ${press.messageId} is.`);
  const user = state.users.get(press.userId);
  if (!user) throw new Error(`The fake has no user ${press.userId}.`);
  const id = interactionSnowflake((press.at ?? new Date(state.now())).getTime());
  const where = guild
    ? { guild_id: guild.id, channel_id: message.channel_id, member: { ...member!, permissions: '0' } }
    : { channel_id: message.channel_id, channel: { id: message.channel_id, type: ChannelType.DM }, user };
  return {
    id,
    application_id: state.bot.id,
    type: 3,
    token: `token-${id}`,
    version: 1,
    ...where,
    message,
    data: { custom_id: press.customId, component_type: 2 },
    locale: 'en-US',
    app_permissions: '0',
    entitlements: [],
    authorizing_integration_owners: {},
  };
}
