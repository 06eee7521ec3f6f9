import { describe, expect, it } from 'vitest';
import { ticketCloseLogLine, ticketClosedDirectMessage } from '../../../src/tickets/ticketCloseMessages.js';

describe('texts of an API ticket close', () => {
  it('the DM names the ticket, its subject, the server and the reason when there are ones', () => {
    expect(ticketClosedDirectMessage({ guildName: 'Cafe', ticketNo: 7, subject: 'Refund', reason: 'Sent.' })).toBe(
      'Your ticket #7 ("Refund") in Cafe was closed. Reason: Sent.',
    );
    expect(ticketClosedDirectMessage({ guildName: 'Cafe', ticketNo: 7, subject: null, reason: null })).toBe('Your ticket #7 in Cafe was closed.');
  });

  it('the log line names the opener, the reason and whether a transcript was saved', () => {
    expect(ticketCloseLogLine({ ticketNo: 3, userId: '123456789012345678', reason: 'Done', hasTranscript: true })).toBe(
      'Ticket #3 of <@123456789012345678> closed through the API (Done). Transcript saved.',
    );
    expect(ticketCloseLogLine({ ticketNo: 3, userId: '123456789012345678', reason: null, hasTranscript: false })).toBe(
      'Ticket #3 of <@123456789012345678> closed through the API.',
    );
  });
});
