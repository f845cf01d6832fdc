// Quota periods follow the shop's billing-cycle day (1-28, so every month has it): a period starts at
// 00:00 UTC on that day of the month and ends at the same moment one month later.

const DAY_MS = 24 * 60 * 60 * 1000;

/** The billing-cycle day for a moment: its UTC day of month, clamped to 28 so February has it too. */
export function cycleDayOf(at: number): number {
  return Math.min(new Date(at).getUTCDate(), 28);
}

function boundary(year: number, month: number, day: number): number {
  return Date.UTC(year, month, day);
}

/** The latest period start at or before `now` for a cycle day. */
export function currentPeriodStart(cycleDay: number, now: number): number {
  const d = new Date(now);
  const day = clampDay(cycleDay);
  const thisMonth = boundary(d.getUTCFullYear(), d.getUTCMonth(), day);
  return thisMonth <= now ? thisMonth : boundary(d.getUTCFullYear(), d.getUTCMonth() - 1, day);
}

/** The first period start strictly after `now`: when the quota resets next. */
export function nextPeriodStart(cycleDay: number, now: number): number {
  const d = new Date(now);
  const day = clampDay(cycleDay);
  const thisMonth = boundary(d.getUTCFullYear(), d.getUTCMonth(), day);
  return thisMonth > now ? thisMonth : boundary(d.getUTCFullYear(), d.getUTCMonth() + 1, day);
}

/** Start of the UTC day containing `at`. */
export function startOfUtcDay(at: number): number {
  return Math.floor(at / DAY_MS) * DAY_MS;
}

function clampDay(day: number): number {
  return Number.isInteger(day) && day >= 1 ? Math.min(day, 28) : 1;
}

/** The quota cycle of a first install: periods start on the install day of each month. */
export function quotaCycleForInstall(installedAt: number): { billingCycleDay: number; quotaPeriodStart: number } {
  return { billingCycleDay: cycleDayOf(installedAt), quotaPeriodStart: installedAt };
}

/**
 * The quota cycle after an install. A first install starts its cycle today. A reinstall keeps the shop's
 * billing-cycle day and, within the same period, its period start, so the period's usage still counts
 * (uninstalling and reinstalling must not hand out a fresh quota). A reinstall after the period ended
 * moves on to the current period of the same cycle day, as the daily reset would have.
 */
export function quotaCycleOnInstall(
  previous: { billingCycleDay: number; quotaPeriodStart: number } | null,
  installedAt: number,
): { billingCycleDay: number; quotaPeriodStart: number } {
  if (!previous) return quotaCycleForInstall(installedAt);
  const current = currentPeriodStart(previous.billingCycleDay, installedAt);
  return { billingCycleDay: previous.billingCycleDay, quotaPeriodStart: Math.max(previous.quotaPeriodStart, current) };
}
