/** Plans as Infura's: daily credits and credits per second. Team includes eth_getProof failover. */
export const PLANS = {
  free: { dailyCredits: 3_000_000, creditsPerSecond: 500, failover: false },
  developer: { dailyCredits: 15_000_000, creditsPerSecond: 4_000, failover: false },
  team: { dailyCredits: 75_000_000, creditsPerSecond: 40_000, failover: true },
} as const;

export type PlanName = keyof typeof PLANS;

export function isPlan(name: string): name is PlanName {
  return Object.prototype.hasOwnProperty.call(PLANS, name);
}
