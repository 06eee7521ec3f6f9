import type { GatewayMessageCreateDispatchData } from 'discord-api-types/v10';
import type { TicketMessageRecord } from '../../../db/tickets/messages.js';

/** A Discord message as a ticket transcript keeps it: text only, no avatars and no attachment links (spec: Transcript). */
export function transcriptMessage(d: GatewayMessageCreateDispatchData, system: boolean): TicketMessageRecord {
  return {
    id: d.id,
    authorId: d.author.id,
    content: d.content,
    createdAt: new Date(d.timestamp),
    editedAt: d.edited_timestamp ? new Date(d.edited_timestamp) : null,
    system,
    replyTo: d.message_reference?.message_id ?? null,
    embeds: d.embeds.map((e) => ({
      title: e.title ?? null,
      description: e.description ?? null,
      fields: (e.fields ?? []).map((f) => ({ name: f.name, value: f.value })),
    })),
    attachments: d.attachments.map((a) => ({ name: a.filename, size: a.size, contentType: a.content_type ?? null })),
    stickers: (d.sticker_items ?? []).map((s) => s.name),
  };
}
