import type { ModCaseRecord } from '../../db/moderation/cases.js';
import type { ModCaseBody } from './contract.js';

export function toModCaseBody(c: ModCaseRecord): ModCaseBody {
  return {
    ...c,
    expiresAt: c.expiresAt?.toISOString() ?? null,
    resolvedAt: c.resolvedAt?.toISOString() ?? null,
    createdAt: c.createdAt.toISOString(),
  };
}

export const toCaseEventBody = <E extends { createdAt: Date }>(e: E) => ({ ...e, createdAt: e.createdAt.toISOString() });
