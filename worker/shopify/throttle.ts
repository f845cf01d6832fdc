// Cost-aware pacing for the Admin GraphQL leaky bucket. Shopify answers every call with
// extensions.cost.throttleStatus {maximumAvailable, currentlyAvailable, restoreRate}; a query whose
// requested cost exceeds what is available is refused with THROTTLED. We keep the last status per shop
// (per isolate), let it refill at restoreRate, subtract the cost of calls still in flight, and wait
// until the next call fits. Other isolates may spend from the same bucket, so a THROTTLED answer can
// still happen; the client then waits for the shortfall and retries.

export type ThrottleStatus = { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };

export type Clock = { now(): number; sleep(ms: number): Promise<void> };
export const realClock: Clock = { now: () => Date.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };

/** Points available at `now`, refilled from a status observed at `at` (pure, for the tests). */
export function refilled(status: ThrottleStatus, at: number, now: number): number {
  const elapsed = Math.max(0, now - at) / 1000;
  return Math.min(status.maximumAvailable, status.currentlyAvailable + elapsed * status.restoreRate);
}

/** Milliseconds until `cost` points fit, given what is available and reserved (pure). */
export function waitFor(cost: number, available: number, reserved: number, restoreRate: number): number {
  const shortfall = cost - (available - reserved);
  if (shortfall <= 0) return 0;
  return Math.ceil((shortfall / Math.max(restoreRate, 1)) * 1000);
}

export class CostBucket {
  private status: ThrottleStatus | null = null;
  private at = 0;
  private reserved = 0;
  private inFlight = 0;
  private gate: Promise<void> = Promise.resolve();

  constructor(private readonly clock: Clock = realClock) {}

  /** Waits (FIFO) until `cost` points fit, then reserves them. Until a first status is known, one call at a time. */
  acquire(cost: number | (() => number)): Promise<number> {
    // The cost is read when this call's turn comes, so calls queued before the first answer already
    // use the cost Shopify reported for their query.
    const turn = this.gate.then(() => this.waitUntilFits(typeof cost === 'function' ? cost() : cost));
    this.gate = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn;
  }

  private async waitUntilFits(cost: number): Promise<number> {
    for (;;) {
      if (!this.status) {
        if (this.inFlight === 0) break;
        await this.clock.sleep(25);
        continue;
      }
      const want = Math.min(cost, this.status.maximumAvailable);
      const available = refilled(this.status, this.at, this.clock.now());
      const ms = waitFor(want, available, this.reserved, this.status.restoreRate);
      if (ms === 0) {
        cost = want;
        break;
      }
      await this.clock.sleep(Math.min(ms, 5_000));
    }
    this.reserved += cost;
    this.inFlight += 1;
    return cost;
  }

  /** Releases a reservation; a fresh status from Shopify replaces the estimate. */
  settle(reservedCost: number, status?: ThrottleStatus | null): void {
    this.reserved = Math.max(0, this.reserved - reservedCost);
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (status) {
      this.status = status;
      this.at = this.clock.now();
    }
  }

  /** What the bucket believes is available now (for logs and tests). */
  estimate(): number | null {
    return this.status ? refilled(this.status, this.at, this.clock.now()) - this.reserved : null;
  }
}

const buckets = new Map<string, CostBucket>();

/** The bucket of one shop in this isolate (Shopify's bucket is per app and shop). */
export function bucketFor(shopDomain: string): CostBucket {
  let b = buckets.get(shopDomain);
  if (!b) {
    b = new CostBucket();
    buckets.set(shopDomain, b);
  }
  return b;
}
