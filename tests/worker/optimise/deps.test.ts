import { describe, expect, it } from 'vitest';
import { oneAtATime } from '../../../worker/optimise/deps';

describe('oneAtATime (one codec run per isolate)', () => {
  it('never runs two calls at once, keeps order, and a failure does not block the next call', async () => {
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const work = oneAtATime(async (n: number) => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 5));
      running -= 1;
      order.push(n);
      if (n === 2) throw new Error('bad bytes');
      return n * 10;
    });
    const results = await Promise.allSettled([1, 2, 3, 4].map((n) => work(n)));
    expect(peak).toBe(1);
    expect(order).toEqual([1, 2, 3, 4]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : 'failed'))).toEqual([10, 'failed', 30, 40]);
  });
});
