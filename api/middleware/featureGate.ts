import { FEATURE_LABELS, type Feature } from '../../src/core/features.js';
import { bankDisabled, featureDisabled } from '../../src/core/errors.js';
import type { AppGate } from '../context.js';

/** Every resource of a disabled feature answers 409; the bank has its own code (spec: Errors). */
export function featureGate(feature: Feature): AppGate {
  return (ctx) => {
    if (!ctx.state.guild!.features.includes(feature)) {
      throw feature === 'bank' ? bankDisabled() : featureDisabled(FEATURE_LABELS[feature]);
    }
  };
}
