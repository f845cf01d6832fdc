import type { Db } from '../db/client';
import {
  CHECK_STATUS,
  type PagespeedCheckRow,
  finishCheck,
  insertCheckUnlessRunning,
  keepNewestPagespeedRows,
  latestCheck,
  latestReadyCheck,
  latestReadyChecks,
} from '../db/pagespeed-scores';
import type { ShopRow } from '../db/shops';
import { msg } from '../../shared/messages';
import { ApiError } from '../lib/errors';
import { PAGESPEED_COOLDOWN_MS, PAGESPEED_ROWS_KEPT } from '../lib/limits';
import type { PagespeedCheckMessage } from '../messages/pagespeed-check';
import type { ScoreAnswer, ScoreHistory } from '../../shared/api/page-speed';
import type { ScoreFailureReason } from '../../shared/api/vocabulary';

/**
 * The score status of GET /api/v2/home/getPageSpeedScore:
 * 0 never checked (this call starts a check), 2 in progress, 1 ready, 3 failed (see `reason`/`message`).
 * The admin polls every 5 s while the status is 0 or 2.
 */
export const SCORE_STATUS = {
  neverChecked: 0,
  ready: CHECK_STATUS.ready,
  inProgress: CHECK_STATUS.inProgress,
  failed: CHECK_STATUS.failed,
} as const;

export type FailureReason = ScoreFailureReason;

/** English texts of the failed state; the admin translates by `reason`. */
export const FAILURE_MESSAGES: Record<FailureReason, string> = {
  password_protected:
    'Your store is password protected, so PageSpeed Insights cannot test it. Remove the storefront password and check again.',
  unreachable: 'PageSpeed Insights could not load your store. Check that it is online, then check again.',
  unavailable: 'PageSpeed Insights is not available right now. Please try again later.',
};

/**
 * A check still "in progress" after this long lost its queue message (3 retries with backoff plus
 * 4 Lighthouse runs of up to 2 minutes stay well under it): it counts as failed and may be restarted.
 */
export const STALE_CHECK_MS = 15 * 60_000;

export type { ScoreAnswer };

/** The storefront PSI tests: the shop's primary domain, else its myshopify domain. */
export function storefrontUrl(shop: Pick<ShopRow, 'domain' | 'primaryDomain'>): string {
  const host = shop.primaryDomain.trim() || shop.domain;
  const url = new URL(/^https?:\/\//i.test(host) ? host : `https://${host}`);
  return `${url.origin}/`;
}

function isStale(check: PagespeedCheckRow, now: number): boolean {
  return check.status === CHECK_STATUS.inProgress && check.requestedAt <= now - STALE_CHECK_MS;
}

function reasonOf(check: PagespeedCheckRow): FailureReason {
  return check.error === 'password_protected' || check.error === 'unreachable' ? check.error : 'unavailable';
}

/**
 * Starts a check unless one is already running. Safe to call repeatedly (the admin's Recheck button,
 * the status-0 poll): at most one fresh in-progress check per shop exists at a time.
 */
export async function requestPageSpeedCheck(
  env: Pick<Env, 'PAGESPEED_QUEUE'>,
  db: Db,
  shop: ShopRow,
  now = Date.now(),
): Promise<{ started: boolean }> {
  const check = await insertCheckUnlessRunning(db, shop.id, storefrontUrl(shop), now, now - STALE_CHECK_MS);
  if (!check) return { started: false };
  await keepNewestPagespeedRows(db, shop.id, PAGESPEED_ROWS_KEPT);
  try {
    await env.PAGESPEED_QUEUE.send({ type: 'check', shopId: shop.id, checkId: check.id } satisfies PagespeedCheckMessage);
  } catch (error) {
    // Without its message the check would sit "in progress" for 15 minutes: end it now, then report.
    await finishCheck(db, shop.id, check.id, { status: CHECK_STATUS.failed, error: 'unavailable', completedAt: now });
    throw error;
  }
  return { started: true };
}

/**
 * The merchant's Recheck: a check still running is kept (no second one); a check that finished within
 * the per-shop cooldown is refused, so a loop of rechecks cannot spend the shared PageSpeed key.
 */
export async function recheckPageSpeed(
  env: Pick<Env, 'PAGESPEED_QUEUE'>,
  db: Db,
  shop: ShopRow,
  now = Date.now(),
): Promise<{ started: boolean }> {
  const latest = await latestCheck(db, shop.id);
  if (latest && latest.status !== CHECK_STATUS.inProgress && latest.requestedAt > now - PAGESPEED_COOLDOWN_MS) {
    throw new ApiError(429, msg('server.limits.pagespeedCooldown'), {
      'Retry-After': String(Math.ceil((latest.requestedAt + PAGESPEED_COOLDOWN_MS - now) / 1000)),
    });
  }
  return requestPageSpeedCheck(env, db, shop, now);
}

export async function getPageSpeedScore(
  env: Pick<Env, 'PAGESPEED_QUEUE'>,
  db: Db,
  shop: ShopRow,
  now = Date.now(),
): Promise<ScoreAnswer> {
  const latest = await latestCheck(db, shop.id);
  if (!latest) {
    await requestPageSpeedCheck(env, db, shop, now);
    return { score: { pc: 0, mb: 0 }, status: SCORE_STATUS.neverChecked, message: 'success', checked_at: null };
  }
  if (latest.status === CHECK_STATUS.ready) {
    const score = { pc: latest.desktop ?? 0, mb: latest.mobile ?? 0 };
    return { score, status: SCORE_STATUS.ready, message: 'success', checked_at: checkedAt(latest) };
  }
  // In progress or failed: show the last good scores meanwhile (0 when there never was one).
  const ready = await latestReadyCheck(db, shop.id);
  const score = { pc: ready?.desktop ?? 0, mb: ready?.mobile ?? 0 };
  const checked_at = ready ? checkedAt(ready) : null;
  if (latest.status === CHECK_STATUS.inProgress && !isStale(latest, now)) {
    return { score, status: SCORE_STATUS.inProgress, message: 'success', checked_at };
  }
  const reason = latest.status === CHECK_STATUS.failed ? reasonOf(latest) : 'unavailable';
  return { score, status: SCORE_STATUS.failed, message: FAILURE_MESSAGES[reason], reason, checked_at };
}

/** When a finished check measured its scores. */
const checkedAt = (check: PagespeedCheckRow) => check.completedAt ?? check.requestedAt;

/** Points the dashboard's score history shows: the last finished checks. */
export const SCORE_HISTORY_POINTS = 10;

/** getPageSpeedHistory: the shop's last finished checks (kept rows only), oldest first. */
export async function getPageSpeedHistory(db: Db, shop: ShopRow): Promise<ScoreHistory> {
  const rows = await latestReadyChecks(db, shop.id, SCORE_HISTORY_POINTS);
  return {
    list: rows.reverse().map((r) => ({ checked_at: checkedAt(r), pc: r.desktop ?? 0, mb: r.mobile ?? 0 })),
  };
}
