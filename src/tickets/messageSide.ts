/**
 * Which side of a ticket a message counts for (Ticket.messageCount): the opener and users added to the
 * ticket are `user`; any other author is `staff`; system messages and messages without an author count for
 * neither. The first `staff` message is the ticket's first response.
 */
export function messageSide(
  ticket: { userId: string; members: Array<{ targetId: string; type: 'user' | 'role' }> },
  message: { authorId: string | null; system: boolean },
): 'user' | 'staff' | null {
  if (message.system || message.authorId === null) return null;
  if (message.authorId === ticket.userId) return 'user';
  if (ticket.members.some((m) => m.type === 'user' && m.targetId === message.authorId)) return 'user';
  return 'staff';
}
