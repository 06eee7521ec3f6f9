import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { FEATURE_LABELS, type Feature } from '../src/core/features.js';
import { isFeatureEnabled } from '../src/guild/featureEnabled.js';
import { refuse } from './refusal.js';

/** Refuses the step (FEATURE_DISABLED, never retried) when the feature went off since the work was accepted. */
export async function requireFeature(db: Kysely<Database>, guildId: string, feature: Feature): Promise<void> {
  if (!(await isFeatureEnabled(db, guildId, feature))) throw refuse('FEATURE_DISABLED', `The ${FEATURE_LABELS[feature]} feature is disabled.`);
}
