import { describe, expect, it } from 'vitest';
import { upsertPlatformChannels } from '../../db/platform/local.js';
import { listPlatformMessages } from '../../db/platform/messages.js';
import { findTicketPanel } from '../../db/tickets/panels.js';
import { applicationApplyButtonId } from '../../src/applications/applicationButtons.js';
import { fixedClock } from '../../src/core/clock.js';
import { ticketPanelButtonId } from '../../src/tickets/panelButtons.js';
import { createPanelForm } from '../harness/applications.js';
import { useTestDatabase } from '../harness/database.js';
import { createTestGuild, snowflake } from '../harness/fixtures.js';
import { cli } from './cli.js';

// The panel commands on the local platform (no PLATFORM=discord): the same use cases, the message and its buttons
// recorded in platform_messages, posted once, edited in place, posted again when the row is gone.

const database = useTestDatabase();
const clock = fixedClock(new Date('2026-11-29T12:00:00Z'));
const admin = cli(() => database.db, clock);

async function localServer() {
  const guild = await createTestGuild(database.db);
  const channelId = snowflake();
  await upsertPlatformChannels(database.db, guild.id, [{ channelId, name: 'support', type: 'text', position: 0 }]);
  return { guildId: guild.id, channelId };
}

describe('panels on the local platform', () => {
  it('a ticket panel: posted once, edited in place, reposted when its message is gone; the text output says so', async () => {
    const { guildId, channelId } = await localServer();
    const posted = await admin('tickets', 'panel', 'post', '--guild', guildId, '--panel', '5', '--channel', channelId, '--text', 'Need help?', '--label', 'Open');
    expect(posted.stderr).toBe('');
    const [message] = await listPlatformMessages(database.db, guildId, channelId);
    expect(posted.stdout).toBe(
      [`Ticket panel 5 of guild ${guildId} posted in channel ${channelId} (message ${message!.id}).`, '  tickets open under no category, seen by no staff role.'].join('\n'),
    );
    expect(message).toMatchObject({ content: 'Need help?', buttons: [{ id: ticketPanelButtonId(5), label: 'Open' }], edited_at: null });

    expect((await admin('tickets', 'panel', 'update', '--guild', guildId, '--panel', '5', '--text', 'Ask us', '--json')).json()).toMatchObject({ outcome: 'edited', messageId: String(message!.id) });
    expect(await listPlatformMessages(database.db, guildId, channelId)).toEqual([expect.objectContaining({ id: message!.id, content: 'Ask us', edited_at: expect.any(Date) })]);

    await database.db.deleteFrom('platform_messages').where('id', '=', message!.id).execute();
    const reposted = (await admin('tickets', 'panel', 'update', '--guild', guildId, '--panel', '5', '--json')).json();
    expect(reposted).toMatchObject({ outcome: 'reposted' });
    expect(await listPlatformMessages(database.db, guildId, channelId)).toEqual([expect.objectContaining({ id: Number(reposted.messageId), content: 'Ask us' })]);
    expect(await findTicketPanel(database.db, guildId, 5)).toMatchObject({ posts: 2 });
  });

  it('an application panel: one button per form', async () => {
    const { guildId, channelId } = await localServer();
    const forms = [];
    for (const title of ['Staff', 'Events']) forms.push(await createPanelForm(database.db, guildId, title, clock.now()));
    const res = await admin('applications', 'panel', 'post', '--guild', guildId, '--panel', '1', '--channel', channelId, '--text', 'Apply');
    expect(res.stderr).toBe('');
    const [message] = await listPlatformMessages(database.db, guildId, channelId);
    expect(message!.buttons).toEqual(forms.map((f) => ({ id: applicationApplyButtonId(f.id), label: f.title })));
    expect(res.stdout).toBe(`Application panel 1 of guild ${guildId} posted in channel ${channelId} (message ${message!.id}), showing every form.`);
  });

  it('usage errors: a bad panel number, a bad id in --staff-roles, --forms that are not numbers', async () => {
    const { guildId, channelId } = await localServer();
    const cases: Array<[string[], string]> = [
      [['tickets', 'panel', 'post', '--guild', guildId, '--panel', '0', '--channel', channelId, '--text', 't', '--label', 'l'], '--panel must be a whole number from 1 to 999,999,999, got "0".'],
      [['tickets', 'panel', 'post', '--guild', guildId, '--panel', '1', '--channel', channelId, '--text', 't', '--label', 'l', '--staff-roles', '12,x'], '--staff-roles must be a snowflake id (17 to 20 digits), got "12".'],
      [['applications', 'panel', 'post', '--guild', guildId, '--panel', '1', '--channel', channelId, '--text', 't', '--forms', 'a'], '--forms must be a whole number from 1 to 2,147,483,647, got "a".'],
    ];
    for (const [argv, message] of cases) {
      const res = await admin(...argv, '--json');
      expect(res.code).toBe(2);
      expect(res.error()).toEqual({ error: 'INVALID_ARGUMENT', message });
    }
    expect(await listPlatformMessages(database.db, guildId, channelId)).toEqual([]);
  });
});
