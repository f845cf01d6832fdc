// The engine runs one image at a time per isolate (its memory budget is for one image; a queue batch and
// concurrent invocations share the isolate): a second image waits for the first, a failure frees the turn.
import { describe, expect, it } from 'vitest';
import { optimiseImage } from '../../../worker/images';
import { oneAtATime } from '../../../worker/images/one-at-a-time';
import { fixture } from './fixtures';
import { lossless, lossy, makeImage, pngOf } from './helpers';

describe('one engine run at a time per isolate', () => {
  it('a queued task starts only after the one before it has settled, even when that one fails', async () => {
    const events: string[] = [];
    let releaseFirst!: () => void;
    const first = oneAtATime(async () => {
      events.push('first:start');
      await new Promise<void>((resolve) => (releaseFirst = resolve));
      events.push('first:end');
      throw new Error('first failed');
    });
    const second = oneAtATime(async () => {
      events.push('second:start');
      return 'second';
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(events).toEqual(['first:start']);
    releaseFirst();
    await expect(first).rejects.toThrow('first failed');
    await expect(second).resolves.toBe('second');
    expect(events).toEqual(['first:start', 'first:end', 'second:start']);
  });

  it('a corrupt image queued first fails on its own and the images queued behind it are still optimised', async () => {
    const corrupt = fixture('rocket-baseline.jpg').slice(0, 600);
    const [bad, good, png] = await Promise.allSettled([
      optimiseImage(corrupt, lossy(75)),
      optimiseImage(fixture('rocket-baseline.jpg'), lossy(75)),
      optimiseImage(pngOf(makeImage(64, 64, (x, y) => [x * 4, y * 4, 128, 255])), lossless()),
    ]);
    expect(bad.status).toBe('rejected');
    expect(good.status === 'fulfilled' && good.value.kind).toBe('optimised');
    expect(png.status).toBe('fulfilled');
  });
});
