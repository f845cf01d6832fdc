// Pricing quota selector: plus/minus move one plan along the list and
// never go below the first paid plan (level 1) nor past the last one.
export type PricingPlan = {
  level: number;
  name: string;
  impressions: number;
  price: number | string;
  discount_mPrice?: number | string;
  proportion?: number | string;
};

export function paidPlans<P extends { level: number }>(plans: readonly P[]): P[] {
  return plans.filter((p) => p.level > 0).sort((a, b) => a.level - b.level);
}

/** The paid level reached from `current` by one step in `direction`, clamped to the paid list. From the
 * free plan (or an unknown level) the selector starts at the first paid plan. */
export function stepPlan(plans: readonly { level: number }[], current: number, direction: 1 | -1): number {
  const levels = paidPlans(plans).map((p) => p.level);
  const first = levels[0];
  if (first === undefined) return current;
  const at = levels.indexOf(current);
  if (at === -1) return first;
  return levels[Math.min(levels.length - 1, Math.max(0, at + direction))] ?? first;
}

export function canStep(plans: readonly { level: number }[], current: number, direction: 1 | -1): boolean {
  return stepPlan(plans, current, direction) !== current;
}

/** Quota bar colour: orange above 50 % used, red above 90 %. */
export type UsageTone = 'normal' | 'orange' | 'red';
export function usageTone(percent: number): UsageTone {
  if (percent > 90) return 'red';
  if (percent > 50) return 'orange';
  return 'normal';
}
export const USAGE_COLOURS: Record<UsageTone, string> = { normal: '#29845a', orange: '#e97f16', red: '#e51c00' };

export const usagePercent = (used: number, all: number) => (all > 0 ? Math.min(100, Math.round((used / all) * 10000) / 100) : 0);
