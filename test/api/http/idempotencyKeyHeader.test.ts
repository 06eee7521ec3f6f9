import { describe, expect, it } from 'vitest';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { addTestMember, bearer, createTestGuild, createTestKey } from '../../harness/fixtures.js';
import { countWrites } from '../../harness/rows.js';

// The Idempotency-Key header is 1 to 100 printable ASCII characters (spec: Limits). A header sent without a
// value is not "no header": it is refused like any other bad value instead of being dropped silently.
const { db, app } = useApiTestBed();

async function setup() {
  const guild = await createTestGuild(db());
  const { key } = await createTestKey(db(), guild, { scopes: ['bank:read', 'bank:write'] });
  const userId = await addTestMember(db(), guild);
  const post = (headers: Record<string, string | string[]>) =>
    app.http('POST', `/guilds/${guild.id}/bank/members/${userId}/transactions`, {
      headers: { ...bearer(key), ...(headers as Record<string, string>) },
      body: { type: 'add', amount: 5 },
    });
  return { guild, post };
}

const refused = (message: string) => ({
  error: 'INVALID_REQUEST',
  message: expect.any(String),
  issues: [{ location: 'header', path: 'Idempotency-Key', message }],
});

describe('an Idempotency-Key header without a value', () => {
  it.each([
    ['empty', ''],
    ['only spaces (HTTP drops the surrounding whitespace)', '   '],
  ])('%s answers 400 INVALID_REQUEST, every time, and changes nothing', async (_label, value) => {
    const { guild, post } = await setup();
    const before = await countWrites(db(), guild.id);
    for (let attempt = 0; attempt < 2; attempt++) {
      const res = await post({ 'Idempotency-Key': value });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(refused('must be 1 to 100 printable ASCII characters'));
      expect(res.headers['idempotent-replayed']).toBeUndefined();
    }
    expect(await countWrites(db(), guild.id)).toEqual(before);
  });

  it('is told apart from a missing header, which still makes a new change each time', async () => {
    const { guild, post } = await setup();
    const first = await post({});
    const second = await post({});
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.transactionId).not.toBe(first.body.transactionId);
    expect(second.body.balance).toBe(first.body.balance + 5);
    expect((await countWrites(db(), guild.id)).idempotency).toBe(0);
  });
});

describe('an Idempotency-Key header given twice', () => {
  it('answers 400 INVALID_REQUEST (which value would be the key?) and changes nothing', async () => {
    const { guild, post } = await setup();
    const before = await countWrites(db(), guild.id);
    const res = await post({ 'Idempotency-Key': ['order-1', 'order-2'] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(refused('must be given once'));
    expect(await countWrites(db(), guild.id)).toEqual(before);
  });
});
