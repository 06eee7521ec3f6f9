import type { Kysely } from 'kysely';
import type { ApiKeyRecord } from '../../db/keys/apiKeys.js';
import type { ModActionRecord } from '../../db/moderation/actions.js';
import type { Database } from '../../db/schema.js';
import { keyActor } from '../keys/keyActor.js';

/**
 * Who an action is taken by: the staff member who used the command (stored on the action), else the creator of the
 * API key it was asked with (read now: a key outlives its creator's roles); null for an escalation, which the bot
 * takes alone, or a key without a creator. `key` is set for API actions only.
 */
export async function actionModerator(
  db: Kysely<Database>,
  action: Pick<ModActionRecord, 'guildId' | 'apiKeyId' | 'moderatorId'>,
): Promise<{ key: ApiKeyRecord | undefined; moderatorId: string | null }> {
  if (action.moderatorId !== null) return { key: undefined, moderatorId: action.moderatorId };
  const { key, actsFor } = await keyActor(db, action.guildId, action.apiKeyId);
  return { key, moderatorId: actsFor };
}
