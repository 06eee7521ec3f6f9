import { describe, expect, it } from 'vitest';
import { findTicketSettings } from '../../../db/tickets/closes.js';
import { cliGuild } from '../../admin/cli.js';
import { useSimulateBed } from '../../admin/simulateBed.js';
import { snowflake } from '../../harness/fixtures.js';
import { countWrites } from '../../harness/rows.js';

// npm run admin -- tickets settings: the log channel of ticket closes and whether transcripts are saved.

const { database, admin, auditOf } = useSimulateBed(new Date('2026-11-24T10:00:00Z'));
const settings = (guildId: string, ...flags: string[]) => admin('tickets', 'settings', '--guild', guildId, ...flags, '--json');
const state = async (guildId: string) => ({ settings: await findTicketSettings(database.db, guildId), writes: await countWrites(database.db, guildId) });

describe('admin tickets settings', () => {
  it('shows the defaults (no log channel, transcripts on) without writing anything', async () => {
    const { id } = await cliGuild(admin, { features: 'all' });
    const before = await state(id);
    const res = await settings(id);
    expect(res.stderr).toBe('');
    expect(res.json()).toEqual({ guildId: id, logChannelId: null, transcripts: true });
    expect(await state(id)).toEqual(before);
  });

  it('sets the log channel and transcripts, each alone or together, with an audit row per change', async () => {
    const { id } = await cliGuild(admin, { features: 'all' });
    const channel = snowflake();
    expect((await settings(id, '--log-channel', channel)).json()).toEqual({ guildId: id, logChannelId: channel, transcripts: true });
    expect((await settings(id, '--transcripts', 'off')).json()).toEqual({ guildId: id, logChannelId: channel, transcripts: false });
    expect((await settings(id, '--log-channel', 'none', '--transcripts', 'on')).json()).toEqual({ guildId: id, logChannelId: null, transcripts: true });
    expect(await findTicketSettings(database.db, id)).toEqual({ logChannelId: null, transcripts: true });
    expect(await auditOf(id, 'tickets.settings')).toMatchObject([
      { actor_type: 'operator', actor_id: 'alice', data: { before: { logChannelId: null, transcripts: true }, after: { logChannelId: channel, transcripts: true } } },
      { data: { after: { logChannelId: channel, transcripts: false } } },
      { data: { after: { logChannelId: null, transcripts: true } } },
    ]);
    const text = await admin('tickets', 'settings', '--guild', id, '--log-channel', channel);
    expect(text.stdout).toBe(`Ticket settings of guild ${id}: log channel ${channel}, transcripts on.`);
  });

  it('transcripts off: a ticket closed then keeps none', async () => {
    const { id } = await cliGuild(admin, { features: 'all' });
    const user = snowflake();
    expect((await admin('member', 'add', '--guild', id, '--user', user)).code).toBe(0);
    expect((await settings(id, '--transcripts', 'off')).code).toBe(0);
    expect((await admin('simulate', 'ticket-open', '--guild', id, '--user', user)).code).toBe(0);
    expect((await admin('simulate', 'ticket-close', '--guild', id, '--ticket', '1', '--json')).json()).toMatchObject({ hasTranscript: false });
  });

  it.each([
    ['a malformed log channel', ['--log-channel', '12'], 'INVALID_ARGUMENT', 2],
    ['an unknown transcripts value', ['--transcripts', 'yes'], 'INVALID_ARGUMENT', 2],
  ])('refuses %s and changes nothing', async (_, flags, code, exit) => {
    const { id } = await cliGuild(admin, { features: 'all' });
    const before = await state(id);
    const res = await settings(id, ...flags);
    expect([res.code, res.error().error]).toEqual([exit, code]);
    expect(await state(id)).toEqual(before);
  });

  it('refuses an unknown guild and a missing --guild', async () => {
    const unknown = await settings(snowflake(), '--transcripts', 'off');
    expect([unknown.code, unknown.error().error]).toEqual([1, 'GUILD_NOT_FOUND']);
    const missing = await admin('tickets', 'settings', '--json');
    expect([missing.code, missing.error().error]).toEqual([2, 'MISSING_FLAG']);
  });

  it('is listed by the general help', async () => {
    expect((await admin('--help')).stdout).toContain('tickets');
    expect((await admin('tickets', '--help')).stdout).toContain('settings');
  });
});
