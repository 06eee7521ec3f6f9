import { PLANS, type Plan } from '../../db/vocabulary.js';

export { PLANS, type Plan };

/** Plan limits (spec: Limits). Request rates per plan come from config (RATE_LIMIT_*_PER_MINUTE), whose defaults are the spec's 60 and 600. */
export interface PlanLimits {
  activeApiKeys: number;
  webhookEndpoints: number;
}

export const PLAN_LIMITS: Record<Plan, PlanLimits> = {
  free: { activeApiKeys: 2, webhookEndpoints: 1 },
  pro: { activeApiKeys: 10, webhookEndpoints: 10 },
};
