import { describe, expect, it } from 'vitest';
import { bandLegend, isScorePending, scoreBand } from '../../../admin/src/lib/score-bands';

describe('score bands', () => {
  it.each([
    [0, 'red'],
    [49, 'red'],
    [50, 'amber'],
    [74, 'amber'],
    [75, 'green'],
    [100, 'green'],
  ] as const)('desktop %i is %s', (score, band) => expect(scoreBand(score, 'pc')).toBe(band));

  it.each([
    [39, 'red'],
    [40, 'amber'],
    [59, 'amber'],
    [60, 'green'],
  ] as const)('mobile %i is %s', (score, band) => expect(scoreBand(score, 'mb')).toBe(band));

  it('the legend covers 0..100 without gaps', () => {
    for (const device of ['pc', 'mb'] as const) {
      const rows = bandLegend(device);
      expect(rows[0]?.from).toBe(0);
      expect(rows.at(-1)?.to).toBe(100);
      for (let i = 1; i < rows.length; i++) expect(rows[i]?.from).toBe((rows[i - 1]?.to ?? 0) + 1);
    }
  });

  it('statuses 0 and 2 are pending, others ready', () => {
    expect([0, 1, 2, 3, undefined].map(isScorePending)).toEqual([true, false, true, false, false]);
  });
});
