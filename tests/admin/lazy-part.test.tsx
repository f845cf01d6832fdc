import { Suspense, type ComponentType } from 'react';
import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { lazyPart } from '../../admin/src/hooks/lazy-part';

const Shown = ({ text }: { text: string }) => <p>{text}</p>;

function Screen({ Part }: { Part: ComponentType<{ text: string }> }) {
  return (
    <div>
      <h1>rest of the screen</h1>
      <Suspense fallback={null}>
        <Part text="the part" />
      </Suspense>
    </div>
  );
}

describe('lazyPart', () => {
  it('shows the part when its chunk fails to download once', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const load = vi.fn().mockRejectedValueOnce(new Error('chunk')).mockResolvedValue(Shown);
    const { Part } = lazyPart<{ text: string }>(load);
    render(<Screen Part={Part} />);
    await vi.advanceTimersByTimeAsync(2000);
    expect(await screen.findByText('the part')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(2);
    vi.useRealTimers();
  });

  it('leaves the rest of the screen when its chunk always fails', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const load = vi.fn().mockRejectedValue(new Error('chunk'));
    const { Part } = lazyPart<{ text: string }>(load);
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    render(<Screen Part={Part} />);
    await vi.advanceTimersByTimeAsync(5000);
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(3));
    await vi.advanceTimersByTimeAsync(100);
    expect(screen.getByText('rest of the screen')).toBeTruthy();
    expect(screen.queryByText('the part')).toBeNull();
    quiet.mockRestore();
    vi.useRealTimers();
  });
});
