import type { GuildRecord } from '../../db/guild/guilds.js';
import { featureOffError, type Feature } from '../../src/core/features.js';

/**
 * A dashboard action of a feature the server has turned off is refused as the API's feature gate refuses it
 * (409 FEATURE_DISABLED, the bank's BANK_DISABLED); the area's pages show FeatureOffPage instead of their content.
 */
export function requireFeature(guild: GuildRecord, feature: Feature): void {
  if (!guild.features.includes(feature)) throw featureOffError(feature);
}
