import type { NewCase } from '../../db/moderation/cases.js';
import { snowflake } from './fixtures.js';

/** A moderation case as a test records it: a command's warning of a new user by a new moderator, unless `c` says otherwise. */
export const newTestCase = (guildId: string, c: Partial<NewCase> = {}): NewCase => ({
  guildId,
  action: 'warn',
  userId: snowflake(),
  userTag: null,
  moderatorId: snowflake(),
  reason: 'spam',
  durationSeconds: null,
  evidence: [],
  source: 'command',
  active: false,
  expiresAt: null,
  dmStatus: 'sent',
  apiKey: null,
  operationId: null,
  createdAt: new Date('2026-05-01T10:00:00.000Z'),
  ...c,
});
