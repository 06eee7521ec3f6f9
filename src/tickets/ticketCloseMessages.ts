// The texts the bot posts when a ticket is closed through the API: the same as a staff close, with no staff name.

export function ticketClosedDirectMessage(t: { guildName: string; ticketNo: number; subject: string | null; reason: string | null }): string {
  const subject = t.subject ? ` ("${t.subject}")` : '';
  const reason = t.reason ? ` Reason: ${t.reason}` : '';
  return `Your ticket #${t.ticketNo}${subject} in ${t.guildName} was closed.${reason}`;
}

export function ticketCloseLogLine(t: { ticketNo: number; userId: string; reason: string | null; hasTranscript: boolean }): string {
  const reason = t.reason ? ` (${t.reason})` : '';
  const transcript = t.hasTranscript ? ' Transcript saved.' : '';
  return `Ticket #${t.ticketNo} of <@${t.userId}> closed through the API${reason}.${transcript}`;
}
