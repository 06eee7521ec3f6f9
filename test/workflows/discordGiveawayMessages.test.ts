import { afterAll, describe, expect, it } from 'vitest';
import { enterGiveaway } from '../../src/giveaways/enterGiveaway.js';
import { startFakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { createDiscordGuild, discordPlatformOn } from '../harness/discordGuild.js';
import { eventually } from '../harness/eventually.js';
import { bearer, snowflake } from '../harness/fixtures.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';

// A giveaway at every limit the spec allows (a 200-character prize, a 1,000-character description, 50 winners,
// 500-character image links) through the REST API with PLATFORM=discord: posted as a card pinging its role, ended
// with its Enter button gone, every request taken by the fake (as strict as Discord about content and embeds).

const fake = await startFakeDiscord();
afterAll(() => fake.close());
const platform = discordPlatformOn(fake);
const { db, app } = useWorkflowTestBed({ worker: { platform }, app: { deps: { platform } } });

const prize = `Grand prize ${'P'.repeat(188)}`;
const description = `Rules: ${'d'.repeat(993)}`;
const imageUrl = `https://img.example/${'i'.repeat(476)}.png`;
const thumbnailUrl = `https://img.example/${'t'.repeat(476)}.png`;

describe('a giveaway at the limits on Discord', () => {
  it('is posted as a card that pings its role, and ended with 50 winners named and the Enter button gone, nothing refused', async () => {
    const g = await createDiscordGuild(db(), fake);
    const pingRole = snowflake();
    fake.state.guilds.get(g.id)!.roles.set(pingRole, { ...fake.state.guilds.get(g.id)!.roles.get(g.roles.member)!, id: pingRole, name: 'Giveaway pings', position: 1 });
    const members = Array.from({ length: 60 }, () => g.addMember());
    const from = fake.requests.length;
    const res = await app.http('POST', `/guilds/${g.id}/giveaways`, {
      headers: bearer(g.key),
      body: { channelId: g.channels.general, prize, description, winners: 50, durationSeconds: 3600, pingRoleId: pingRole, dmWinners: false, embed: { color: '#112233', endedColor: '#445566', emoji: '🎁', imageUrl, thumbnailUrl } },
    });
    expect(res.status).toBe(201);
    expect([prize.length, description.length, imageUrl.length]).toEqual([200, 1000, 500]);
    const id = res.body.id as number;
    const giveaway = () => app.http('GET', `/guilds/${g.id}/giveaways/${id}`, { headers: bearer(g.key) });
    await eventually(giveaway, (r) => r.body?.status === 'active');

    const messageWrites = () => fake.requests.slice(from).filter((r) => r.path.startsWith(`/channels/${g.channels.general}/messages`));
    const [post] = messageWrites();
    const endsAt = Math.floor(new Date(res.body.endsAt as string).getTime() / 1000);
    expect(post!.status).toBe(200);
    expect(post!.body).toMatchObject({
      content: `<@&${pingRole}> 🎁 **GIVEAWAY** 🎁`,
      allowed_mentions: { parse: [], users: [], roles: [pingRole] },
      embeds: [
        {
          title: prize,
          description: expect.stringContaining(`${description}\n\nEnds <t:${endsAt}:R>`),
          color: 0x112233,
          image: { url: imageUrl },
          thumbnail: { url: thumbnailUrl },
          footer: { text: '50 winners · Ends' },
          timestamp: new Date(res.body.endsAt as string).toISOString(),
        },
      ],
      components: [{ type: 1, components: [{ type: 2, custom_id: `giveaway:enter:${id}`, label: 'Enter' }] }],
    });
    const messageId = [...fake.state.messages.values()].find((m) => m.channel_id === g.channels.general)!.id;
    // The ping reached the role: the bot may mention it (Mention Everyone, from the invite's permissions).
    expect(fake.state.messages.get(messageId)).toMatchObject({ mention_roles: [pingRole], mention_everyone: false });

    for (const userId of members) {
      const member = await platform.getMember(g.id, userId);
      await db()
        .transaction()
        .execute((trx) => enterGiveaway(trx, { guildId: g.id, giveawayId: id, userId, member, at: new Date(), actor: { type: 'system' } }));
    }
    const ended = await app.http('POST', `/guilds/${g.id}/giveaways/${id}/end`, { headers: bearer(g.key) });
    expect(ended.status).toBe(200);
    const winners = ended.body.draw.winnerIds as string[];
    expect(winners).toHaveLength(50);
    await eventually(giveaway, (r) => r.body.queuedActions.length === 3 && r.body.queuedActions.every((a: { status: string }) => a.status !== 'queued'));
    expect((await giveaway()).body.queuedActions.filter((a: { status: string }) => a.status !== 'done')).toEqual([]);

    expect(messageWrites().map((r) => [r.method, r.status])).toEqual([
      ['POST', 200],
      ['PATCH', 200],
      ['POST', 200],
    ]);
    const message = fake.state.messages.get(messageId)!;
    expect(message.components).toEqual([]);
    expect(message.content).toBe('🎁 **GIVEAWAY ENDED** 🎁');
    const card = message.embeds[0]!;
    expect(card).toMatchObject({ title: prize, color: 0x445566, footer: { text: '50 winners · Ended' } });
    for (const w of winners) expect(card.description).toContain(`<@${w}>`);
    const edit = messageWrites()[1]!.body as { allowed_mentions: unknown };
    expect(edit.allowed_mentions).toEqual({ parse: [], users: [], roles: [] });

    const announcement = [...fake.state.messages.values()].filter((m) => m.channel_id === g.channels.general)[1]!;
    expect(announcement.content.length).toBeLessThanOrEqual(2000);
    expect(announcement.content).toContain(`You won **${prize}**!`);
    expect(announcement.mentions.map((u) => u.id).sort()).toEqual([...winners].sort());
  });
});
