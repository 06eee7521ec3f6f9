/** What a delivery's body is made of: the event as the receiver sees it. */
export interface DeliveredEvent {
  id: string;
  type: string;
  createdAt: string;
  guildId: string;
  data: unknown;
}

/** The body every attempt of a delivery sends, serialised once so that retries are byte-identical. */
export function deliveryBody(event: DeliveredEvent): string {
  return JSON.stringify({ id: event.id, type: event.type, createdAt: event.createdAt, guildId: event.guildId, data: event.data });
}
