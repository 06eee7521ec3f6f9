import { featureOffError, type Feature } from '../../src/core/features.js';
import type { AppGate } from '../context.js';

/** Every resource of a disabled feature answers 409 (FEATURE_DISABLED; the bank's BANK_DISABLED). */
export function featureGate(feature: Feature): AppGate {
  return (ctx) => {
    if (!ctx.state.guild!.features.includes(feature)) throw featureOffError(feature);
  };
}
