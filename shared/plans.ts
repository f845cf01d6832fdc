// The plan table: prices per 30 days and images per month.
export const PLANS = [
  { level: 0, name: 'Free', priceCents: 0, images: 150 },
  { level: 1, name: 'Premium', priceCents: 499, images: 1000 },
  { level: 2, name: 'Premium', priceCents: 999, images: 2500 },
  { level: 3, name: 'Premium', priceCents: 1999, images: 6000 },
  { level: 4, name: 'Premium', priceCents: 3999, images: 15000 },
  { level: 5, name: 'Premium', priceCents: 7999, images: 40000 },
  { level: 6, name: 'Premium', priceCents: 14999, images: 100000 },
] as const;

export type PlanLevel = (typeof PLANS)[number]['level'];
export const MAX_PLAN_LEVEL = 6;

/** Overage: $4.99 per 1,000 images beyond the plan (only with overcharge switched on). */
export const OVERAGE_CENTS_PER_1000 = 499;

/** Originals are kept 30 days; afterwards an image cannot be restored or re-optimised. */
export const RETENTION_DAYS = 30;
export const RETENTION_MS = RETENTION_DAYS * 24 * 60 * 60 * 1000;

export function planFor(level: number) {
  return PLANS.find((p) => p.level === level) ?? PLANS[0];
}
