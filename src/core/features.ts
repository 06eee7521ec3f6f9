import { FEATURES, type Feature } from '../../db/vocabulary.js';
import { bankDisabled, featureDisabled } from './errors.js';

export { FEATURES, type Feature };

export const isFeature = (value: string): value is Feature => (FEATURES as readonly string[]).includes(value);

/** Human names used in FEATURE_DISABLED messages. */
export const FEATURE_LABELS: Record<Feature, string> = {
  bank: 'Bank',
  levels: 'Levels',
  invites: 'Invites and Rewards',
  shop: 'Shop',
  giveaways: 'Giveaways',
  flows: 'Flows',
  tickets: 'Tickets',
  applications: 'Applications',
  appeals: 'Ban appeals',
  moderation: 'Moderation',
  members: 'Members',
};

export function parseFeatures(input: string): { features: Feature[]; unknown: string[] } {
  if (input.trim() === 'all') return { features: [...FEATURES], unknown: [] };
  const names = [...new Set(input.split(',').map((s) => s.trim()).filter(Boolean))];
  return { features: names.filter(isFeature), unknown: names.filter((n) => !isFeature(n)) };
}

/** The refusal of a request for a feature that is off (409): the bank has its own code (spec: Errors). */
export const featureOffError = (feature: Feature) => (feature === 'bank' ? bankDisabled() : featureDisabled(FEATURE_LABELS[feature]));
