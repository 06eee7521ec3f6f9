import { describe, expect, it } from 'vitest';
import { saveModerationSettings } from '../../db/moderation/settings.js';
import { listPlatformDirectMessages } from '../../db/platform/moderation.js';
import { appealOpenButtonId } from '../../src/appeals/appealForm.js';
import { FEATURES } from '../../src/core/features.js';
import { eventually } from '../harness/eventually.js';
import { bearer } from '../harness/fixtures.js';
import { createModerationGuild } from '../harness/moderationGuild.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';

// The ban DM on the local platform (the default adapter) records the Appeal button the Discord adapter sends
// (banDmAppeal.test.ts), so both adapters carry it alike.

const { db, app } = useWorkflowTestBed();

async function ban(g: { id: string; key: string }, userId: string) {
  const res = await app.http('POST', `/guilds/${g.id}/moderation/users/${userId}/ban`, { headers: bearer(g.key), body: { reason: 'raids' } });
  expect(res.status).toBe(202);
  const done = await eventually(
    () => app.http('GET', `/guilds/${g.id}/moderation/actions/${res.body.actionId}`, { headers: bearer(g.key) }),
    (r) => r.body?.status === 'done' || r.body?.status === 'failed',
  );
  expect(done.body).toMatchObject({ status: 'done' });
}

describe('the ban DM on the local platform', () => {
  it('records the Appeal button with the DM when appeals are on, none when off', async () => {
    for (const appeals of [true, false]) {
      const g = await createModerationGuild(db(), { features: FEATURES.filter((f) => appeals || f !== 'appeals') });
      await saveModerationSettings(db(), g.id, { dmMembers: true, logChannelId: null, warningExpirySeconds: null });
      const target = await g.addMember();
      await ban(g, target);
      const dms = await listPlatformDirectMessages(db(), g.id, target);
      expect(dms.map((d) => d.buttons)).toEqual([appeals ? [{ id: appealOpenButtonId(g.id), label: 'Appeal' }] : null]);
    }
  });
});
