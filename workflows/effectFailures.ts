import { activityFailureType } from './refusalCode.js';

/** A platform effect of a decision that failed for good: its type, and the activity's failure type or DM_FAILED. */
export interface EffectFailure<T extends string> {
  type: T;
  error: string;
}

/**
 * Runs one platform effect of a decision that already stands and answers what failed instead of throwing: the
 * activity's failure type, or DM_FAILED for a `dm` whose activity answered `failed` (the member takes no DMs).
 * Null when it worked.
 */
export async function effectFailure<T extends string>(type: T, effect: () => Promise<unknown>): Promise<EffectFailure<T> | null> {
  try {
    const outcome = await effect();
    return type === 'dm' && outcome === 'failed' ? { type, error: 'DM_FAILED' } : null;
  } catch (err) {
    return { type, error: activityFailureType(err) };
  }
}

/** Runs a decision's effects one after the other, each whatever the others did, and collects the ones that failed. */
export function failureCollector<T extends string>(): { failed: EffectFailure<T>[]; attempt(type: T, effect: () => Promise<unknown>): Promise<void> } {
  const failed: EffectFailure<T>[] = [];
  return {
    failed,
    async attempt(type, effect) {
      const failure = await effectFailure(type, effect);
      if (failure) failed.push(failure);
    },
  };
}
