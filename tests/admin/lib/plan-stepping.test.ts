import { describe, expect, it } from 'vitest';
import { canStep, stepPlan, usagePercent, usageTone } from '../../../admin/src/lib/plan-stepping';

const plans = [0, 1, 2, 3, 4, 5, 6].map((level) => ({ level }));

describe('quota selector', () => {
  it('moves one plan at a time', () => {
    expect(stepPlan(plans, 2, 1)).toBe(3);
    expect(stepPlan(plans, 2, -1)).toBe(1);
  });
  it('never goes below the first paid plan nor past the last', () => {
    expect(stepPlan(plans, 1, -1)).toBe(1);
    expect(stepPlan(plans, 6, 1)).toBe(6);
    expect(canStep(plans, 1, -1)).toBe(false);
    expect(canStep(plans, 6, 1)).toBe(false);
  });
  it('starts at the first paid plan from free', () => {
    expect(stepPlan(plans, 0, -1)).toBe(1);
    expect(stepPlan([...plans].reverse(), 0, 1)).toBe(1);
  });
});

describe('quota bar', () => {
  it.each([
    [0, 'normal'],
    [50, 'normal'],
    [50.01, 'orange'],
    [90, 'orange'],
    [90.5, 'red'],
  ] as const)('%f %% is %s', (p, tone) => expect(usageTone(p)).toBe(tone));
  it('percent of quota', () => {
    expect(usagePercent(75, 150)).toBe(50);
    expect(usagePercent(10, 0)).toBe(0);
    expect(usagePercent(300, 150)).toBe(100);
  });
});
