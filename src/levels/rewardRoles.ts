export interface RewardPlan {
  add: string[];
  remove: string[];
}

/**
 * Which reward roles a member at `level` should hold: every reward up to the level, or only the
 * highest one reached when the server removes previous rewards. Rewards above the level (after a
 * removal or a set) are taken away.
 */
export function planRewardRoles(
  rewards: Array<{ level: number; roleId: string }>,
  level: number,
  removePrevious: boolean,
): RewardPlan {
  const reached = rewards.filter((r) => r.level <= level);
  const top = Math.max(-1, ...reached.map((r) => r.level));
  const keep = new Set(reached.filter((r) => !removePrevious || r.level === top).map((r) => r.roleId));
  const all = new Set(rewards.map((r) => r.roleId));
  return { add: [...keep].sort(), remove: [...all].filter((roleId) => !keep.has(roleId)).sort() };
}
