import { describe, expect, it } from 'vitest';
import { formatCountdown, msUntil } from '../../../admin/src/lib/countdown';

describe('discount countdown', () => {
  it('formats hh:mm:ss', () => {
    expect(formatCountdown(3723000)).toBe('01:02:03');
    expect(formatCountdown(0)).toBe('00:00:00');
    expect(formatCountdown(-5000)).toBe('00:00:00');
    expect(formatCountdown(49 * 3600 * 1000 + 999)).toBe('49:00:00');
  });

  it('reads seconds, milliseconds and date strings', () => {
    const now = Date.UTC(2026, 0, 1);
    expect(msUntil(now / 1000 + 60, now)).toBe(60000);
    expect(msUntil(now + 1500, now)).toBe(1500);
    expect(msUntil(String(now / 1000 + 2), now)).toBe(2000);
    expect(msUntil('2026-01-01T00:00:10Z', now)).toBe(10000);
    expect(msUntil(now / 1000 - 10, now)).toBe(0);
    expect(msUntil('not a date', now)).toBe(0);
  });
});
