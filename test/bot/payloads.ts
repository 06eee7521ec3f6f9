import { randomInt } from 'node:crypto';
import { memberMessagePayload } from '../../process/infra/fakeDiscord/index.js';
import { snowflake } from '../harness/fixtures.js';

/** A MESSAGE_CREATE payload as Discord sends it for a member's message in a server, written at `at`. */
export const memberMessage = (guildId: string, authorId: string, at: Date, extra: Record<string, unknown> = {}, author: Record<string, unknown> = {}) => ({
  ...memberMessagePayload({ id: snowflake(), channelId: snowflake(), guildId, author: { id: authorId, username: 'zoe', ...author }, at }),
  ...extra,
});

/** A GUILD_MEMBER_ADD payload as Discord sends it. */
export const memberAddPayload = (guildId: string, userId: string, joinedAt: Date, username = 'zoe', roles: string[] = []) => ({
  guild_id: guildId,
  user: { id: userId, username, discriminator: '0', global_name: null, avatar: null },
  roles,
  joined_at: joinedAt.toISOString(),
  deaf: false,
  mute: false,
  flags: 0,
});

const COMPONENT = 3;
const DIALOG_SUBMIT = 5;
const EPHEMERAL = 64;

/** Where an interaction comes from: a server's channel (Discord sends the member) or the user's DM with the bot. */
export type InteractionPlace = { guildId: string; channelId?: string } | { dm: true };

/**
 * When the bot tests' interactions are created, by default: the fixed clock's time in their beds. The bot judges an
 * interaction's age from its id (a snowflake) against its clock, so ids carry this time.
 */
export const INTERACTION_AT = new Date('2026-11-25T12:00:00Z');

/** A snowflake stamped at `at`, as Discord's ids are. */
export const snowflakeAt = (at: Date) => String(((BigInt(at.getTime()) - 1_420_070_400_000n) << 22n) | BigInt(randomInt(0, 4_194_304)));

/** An INTERACTION_CREATE payload as Discord sends it, for the bot application `applicationId`, created at `at`. */
export function interactionPayload(
  applicationId: string,
  type: typeof COMPONENT | typeof DIALOG_SUBMIT,
  data: Record<string, unknown>,
  userId: string,
  place: InteractionPlace,
  at: Date = INTERACTION_AT,
) {
  const id = snowflakeAt(at);
  const user = { id: userId, username: 'presser', discriminator: '0', global_name: null, avatar: null };
  const where =
    'dm' in place
      ? { channel_id: snowflake(), user }
      : {
          guild_id: place.guildId,
          channel_id: place.channelId ?? snowflake(),
          member: { user, roles: [], joined_at: '2026-01-01T00:00:00.000Z', deaf: false, mute: false, flags: 0, permissions: '0' },
        };
  return {
    id,
    application_id: applicationId,
    type,
    token: `token-${id}`,
    version: 1,
    ...where,
    data,
    locale: 'en-US',
    app_permissions: '0',
    entitlements: [],
    authorizing_integration_owners: {},
  };
}

/** A button press: a component interaction on the button `customId`. */
export const buttonPress = (applicationId: string, customId: string, userId: string, place: InteractionPlace, at?: Date) =>
  interactionPayload(applicationId, COMPONENT, { custom_id: customId, component_type: 2 }, userId, place, at);

/** A dialog's submission with its text inputs' values. */
export const dialogSubmit = (applicationId: string, customId: string, values: Record<string, string>, userId: string, place: InteractionPlace) =>
  interactionPayload(
    applicationId,
    DIALOG_SUBMIT,
    { custom_id: customId, components: Object.entries(values).map(([custom_id, value]) => ({ type: 1, components: [{ type: 4, id: 1, custom_id, value }] })) },
    userId,
    place,
  );

/** The interaction callback the bot sends to answer the member alone with `content`. */
export const ephemeralAnswer = (content: string) => ({ type: 4, data: { content, flags: EPHEMERAL, allowed_mentions: { parse: [] } } });
