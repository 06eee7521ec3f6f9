import { describe, expect, it } from 'vitest';
import { saveBankSettings } from '../../../db/bank/accounts.js';
import { DEFAULT_GIVEAWAY_SETTINGS } from '../../../db/giveaways/settings.js';
import { GiveawayStartRequest } from '../../../src/giveaways/contract.js';
import { createGiveaway } from '../../../src/giveaways/createGiveaway.js';
import { useSimulateBed } from '../../admin/simulateBed.js';
import { createTestGuild } from '../../harness/fixtures.js';
import { upsertPlatformMember } from '../../../db/platform/local.js';
import { userIdAged } from './giveawayBed.js';

// `npm run admin -- simulate giveaway-entry | giveaway-cancel`: the bot-side giveaway use cases from the operator CLI.
const NOW = new Date('2026-11-24T10:00:00Z');
const { database, admin, auditOf } = useSimulateBed(NOW);
const db = () => database.db;

async function activeGiveaway(entryCost = 0) {
  const guild = await createTestGuild(db());
  await saveBankSettings(db(), guild.id, { currency: { name: 'coin', plural: 'coins', emoji: null }, startingBalance: 100, maxBalance: null, logChannelId: null });
  const body = GiveawayStartRequest.parse({ channelId: '1100000000000000222', prize: 'Prize', durationSeconds: 600, requirements: { entryCost } });
  const g = await db()
    .transaction()
    .execute((trx) => createGiveaway(trx, { guildId: guild.id, body, defaultHostId: guild.ownerId, settings: DEFAULT_GIVEAWAY_SETTINGS, at: NOW, actor: { type: 'system' } }));
  await db().updateTable('giveaways').set({ status: 'active' }).where('guild_id', '=', guild.id).execute();
  const user = userIdAged(NOW, 100, 1);
  await upsertPlatformMember(db(), { guildId: guild.id, userId: user, username: 'entrant', bot: false, roleIds: [] });
  return { guildId: guild.id, id: String(g.id), user };
}

describe('simulate giveaway-entry and giveaway-cancel', () => {
  it('enters (paying the cost), enters again without change, leaves with a refund; JSON output and audit rows', async () => {
    const { guildId, id, user } = await activeGiveaway(25);
    const entered = await admin('simulate', 'giveaway-entry', '--guild', guildId, '--giveaway', id, '--user', user, '--json');
    expect(entered.code).toBe(0);
    expect(entered.json()).toMatchObject({ giveawayId: 1, userId: user, entered: true, tickets: 1, paid: 25, fanout: 'relay' });
    expect(entered.json().events.map((e: { data: { type: string } }) => e.data.type)).toEqual(['starting_balance', 'giveaway_entry']);
    expect((await admin('simulate', 'giveaway-entry', '--guild', guildId, '--giveaway', id, '--user', user, '--json')).json()).toMatchObject({ entered: false, events: [] });
    const left = await admin('simulate', 'giveaway-entry', '--guild', guildId, '--giveaway', id, '--user', user, '--leave', '--json');
    expect(left.json()).toMatchObject({ left: true, refunded: 25 });
    expect((await auditOf(guildId, 'giveaways.enter')).map((a) => a.actor_id)).toEqual(['alice']);
    expect(await auditOf(guildId, 'giveaways.leave')).toHaveLength(1);
  });

  it('refusals exit 1 with the refusal code; a cancel refunds and then refuses entries', async () => {
    const { guildId, id, user } = await activeGiveaway(10);
    const stranger = await admin('simulate', 'giveaway-entry', '--guild', guildId, '--giveaway', id, '--user', '1999999999999999999', '--json');
    expect(stranger.code).toBe(1);
    expect(stranger.error().error).toBe('MEMBER_NOT_FOUND');
    expect((await admin('simulate', 'giveaway-entry', '--guild', guildId, '--giveaway', '7', '--user', user, '--json')).error().error).toBe('GIVEAWAY_NOT_FOUND');
    expect((await admin('simulate', 'giveaway-entry', '--guild', guildId, '--giveaway', 'x', '--user', user)).code).toBe(2);
    await admin('simulate', 'giveaway-entry', '--guild', guildId, '--giveaway', id, '--user', user);
    const cancelled = await admin('simulate', 'giveaway-cancel', '--guild', guildId, '--giveaway', id, '--json');
    expect(cancelled.code).toBe(0);
    expect(cancelled.json()).toMatchObject({ giveawayId: 1, status: 'cancelled', refunds: [{ userId: user, amount: 10 }] });
    expect((await admin('simulate', 'giveaway-entry', '--guild', guildId, '--giveaway', id, '--user', user, '--json')).error().error).toBe('GIVEAWAY_NOT_ACTIVE');
    expect((await admin('simulate', 'giveaway-cancel', '--guild', guildId, '--giveaway', id, '--json')).error().error).toBe('GIVEAWAY_NOT_OPEN');
    expect(await auditOf(guildId, 'giveaways.cancel')).toHaveLength(1);
  });
});
