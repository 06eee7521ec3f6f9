/** Plan limits (spec: Limits). */
export const PLANS = ['free', 'pro'] as const;
export type Plan = (typeof PLANS)[number];

export interface PlanLimits {
  requestsPerMinute: number;
  activeApiKeys: number;
  webhookEndpoints: number;
}

export const PLAN_LIMITS: Record<Plan, PlanLimits> = {
  free: { requestsPerMinute: 60, activeApiKeys: 2, webhookEndpoints: 1 },
  pro: { requestsPerMinute: 600, activeApiKeys: 10, webhookEndpoints: 10 },
};
