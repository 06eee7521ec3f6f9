import { ChannelType, OverwriteType, PermissionFlagsBits, type APIChannel, type APIOverwrite } from 'discord-api-types/v10';
import type { TicketChannelRequest } from '../../core/platform.js';

/** What a ticket's opener, its staff roles and the bot may do in its channel: see it, write, read what came before. */
const TICKET_ACCESS = String(PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.ReadMessageHistory);

/** The body of `POST /guilds/{id}/channels` for a ticket: a text channel hidden from everyone else. */
export function ticketChannelBody(guildId: string, request: TicketChannelRequest, botId: string) {
  return {
    name: request.name,
    type: ChannelType.GuildText,
    ...(request.parentId ? { parent_id: request.parentId } : {}),
    permission_overwrites: [
      { id: guildId, type: OverwriteType.Role, allow: '0', deny: String(PermissionFlagsBits.ViewChannel) },
      ...[request.openerId, botId].map((id) => ({ id, type: OverwriteType.Member, allow: TICKET_ACCESS, deny: '0' })),
      ...(request.staffRoleIds ?? []).map((id) => ({ id, type: OverwriteType.Role, allow: TICKET_ACCESS, deny: '0' })),
    ],
  };
}

/** The ticket's channel made earlier (a create whose answer was lost): its name, opened to that very opener. */
export const isTicketChannelOf = (channel: APIChannel, request: TicketChannelRequest) =>
  channel.type === ChannelType.GuildText &&
  channel.name === request.name &&
  ((channel as { permission_overwrites?: APIOverwrite[] }).permission_overwrites ?? []).some((o) => o.type === OverwriteType.Member && o.id === request.openerId);
