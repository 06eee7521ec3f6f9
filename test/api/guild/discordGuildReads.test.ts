import { afterAll, describe, expect, it } from 'vitest';
import { serverError, startFakeDiscord } from '../../../process/infra/fakeDiscord/index.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { createDiscordGuild, discordPlatformOn } from '../../harness/discordGuild.js';
import { bearer } from '../../harness/fixtures.js';
import { startTestApp } from '../../harness/testApp.js';

// The server endpoints with PLATFORM=discord: read from Discord (the fake), degraded as the spec says when it is down.

const fake = await startFakeDiscord();
afterAll(() => fake.close());
const { db } = useApiTestBed();

async function app() {
  const started = await startTestApp(db(), { deps: { platform: discordPlatformOn(fake) } });
  afterAll(() => started.close());
  return started;
}

describe('server reads on Discord', () => {
  it("the guild, its roles, channels and a member come from Discord; memberCount is Discord's approximate count", async () => {
    const { http } = await app();
    const g = await createDiscordGuild(db(), fake);
    const member = g.addMember();
    const guild = await http('GET', `/guilds/${g.id}`, { headers: bearer(g.key) });
    expect(guild.status).toBe(200);
    expect(guild.body).toMatchObject({ id: g.id, memberCount: 4 });
    const roles = await http('GET', `/guilds/${g.id}/roles`, { headers: bearer(g.key) });
    expect(roles.body.items.map((r: { name: string }) => r.name)).toEqual(['Admin', 'Bot', 'Moderator', 'Member', 'Level 2']);
    const channels = await http('GET', `/guilds/${g.id}/channels`, { headers: bearer(g.key) });
    expect(channels.body.items.map((c: { name: string }) => c.name)).toEqual(['general', 'mod-log']);
    const found = await http('GET', `/guilds/${g.id}/members/${member}`, { headers: bearer(g.key) });
    expect(found.body).toMatchObject({ userId: member, roles: [g.roles.member], bot: false });
  });

  it('Discord down: the guild answers with memberCount and iconUrl null; roles and members answer 503 with Retry-After', async () => {
    const { http } = await app();
    const g = await createDiscordGuild(db(), fake);
    const member = g.addMember();
    fake.fail({ path: new RegExp(`^/guilds/${g.id}`), answer: serverError(503), times: 3 });
    const guild = await http('GET', `/guilds/${g.id}`, { headers: bearer(g.key) });
    expect(guild.status).toBe(200);
    expect(guild.body).toMatchObject({ id: g.id, name: 'Discord Test Guild', memberCount: null, iconUrl: null });
    for (const path of [`/guilds/${g.id}/roles`, `/guilds/${g.id}/members/${member}`]) {
      const res = await http('GET', path, { headers: bearer(g.key) });
      expect(res.status).toBe(503);
      expect(res.body.error).toBe('SERVICE_UNAVAILABLE');
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
    }
  });
});
