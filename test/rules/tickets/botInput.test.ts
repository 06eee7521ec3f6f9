import { describe, expect, it } from 'vitest';
import { AttachmentsInput, EmbedsInput, messageIdAt, TicketAnswersInput } from '../../../src/tickets/botInput.js';

describe('messageIdAt', () => {
  it('makes snowflakes that sort by time, then by sequence', () => {
    const a = messageIdAt(new Date('2026-11-24T10:00:00Z'), 0);
    const b = messageIdAt(new Date('2026-11-24T10:00:00Z'), 1);
    const c = messageIdAt(new Date('2026-11-24T10:00:01Z'), 0);
    for (const id of [a, b, c]) expect(id).toMatch(/^\d{17,20}$/);
    expect(BigInt(a) < BigInt(b) && BigInt(b) < BigInt(c)).toBe(true);
    // The platform's epoch: the time is in the high bits.
    expect(Number(BigInt(a) >> 22n) + 1_420_070_400_000).toBe(Date.parse('2026-11-24T10:00:00Z'));
  });
});

describe('bot inputs', () => {
  it('accepts answers, embeds and attachments of the documented shapes and refuses others', () => {
    expect(TicketAnswersInput.safeParse([{ label: 'Order', value: 'A-1' }, { fieldId: 'x', label: 'Why', value: '' }]).success).toBe(true);
    expect(TicketAnswersInput.safeParse([{ label: '', value: 'x' }]).success).toBe(false);
    expect(TicketAnswersInput.safeParse([{ label: 'x', value: 'y', extra: 1 }]).success).toBe(false);
    expect(EmbedsInput.safeParse([{ title: 't', fields: [{ name: 'n', value: 'v' }] }]).success).toBe(true);
    expect(EmbedsInput.safeParse({}).success).toBe(false);
    expect(AttachmentsInput.safeParse([{ name: 'a.png', size: 10, contentType: 'image/png' }]).success).toBe(true);
    expect(AttachmentsInput.safeParse([{ name: 'a.png', size: -1 }]).success).toBe(false);
  });
});
