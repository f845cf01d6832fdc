// The settings sheet on the image page: what the merchant changes is theirs until they save or discard.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, renderApp } from '../helpers/render-app';
import { setUpImagePageEnvironment } from './page-environment';
import { historyRow, idleSchedule, page, totals } from './fixtures';

setUpImagePageEnvironment();

describe('settings sheet', () => {
  let reads = 0;
  it('a re-read of the settings that lands after an edit keeps the edit (the sheet shows cached settings meanwhile)', async () => {
    const api = mockApi({
      '/api/v2/image-opt/getImgOptTotal': totals(),
      '/api/v2/image-opt/getOptSchedule': idleSchedule(),
      '/api/v2/image-opt/getImageOptDataPage': page([historyRow(1)]),
      // The second read answers what another tab saved meanwhile (PNG to JPG on).
      '/api/v2/image-opt/getSettings': () => {
        const data = totals().settings;
        return { ack: 1, data: reads < 2 ? data : { ...data, image_opt: { ...data.image_opt, pngtojpg: 1 } } };
      },
    });
    // The second read of the settings waits until the test lets it answer.
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    const answer = globalThis.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input instanceof Request ? input.url : input).includes('/getSettings') && ++reads === 2) await held;
      return answer(input, init);
    });
    renderApp('/image_optimisation');
    const open = async () => {
      fireEvent.click((await screen.findAllByRole('button', { name: 'Settings' }))[0]!);
      return screen.findByRole('dialog', { name: 'Settings' });
    };
    await open();
    await screen.findByLabelText('Automatic');
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Settings' })).toBeNull());

    await open(); // shows the cached settings while they are read again
    fireEvent.click(await screen.findByLabelText('Automatic'));
    expect(screen.getByLabelText<HTMLInputElement>('Automatic').checked).toBe(true);
    release();
    await waitFor(() => expect(api.callsTo('/api/v2/image-opt/getSettings')).toHaveLength(2));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByLabelText<HTMLInputElement>('Automatic').checked).toBe(true);
    // The new read is the saved state now: the edit is still unsaved.
    expect(screen.getByLabelText<HTMLInputElement>('Convert PNG to JPG').checked).toBe(false);
    expect(screen.getAllByRole('button', { name: 'Save' }).some((b) => b.getAttribute('aria-disabled') !== 'true')).toBe(true);
  });
  it('watermark size on the sheet: 10 to 100 %, a stored 0.05 shown as 5 % (the slider reaches down to it)', async () => {
    const data = totals().settings;
    const stored = {
      ...data,
      image_opt: { ...data.image_opt, watermark: { ...data.image_opt.watermark, switch: 1, logo: 'w.png', image_height: 0.05 } },
    };
    mockApi({
      '/api/v2/image-opt/getImgOptTotal': totals(),
      '/api/v2/image-opt/getOptSchedule': idleSchedule(),
      '/api/v2/image-opt/getImageOptDataPage': page([historyRow(1)]),
      '/api/v2/image-opt/getSettings': { ack: 1, data: stored },
    });
    renderApp('/image_optimisation');
    fireEvent.click((await screen.findAllByRole('button', { name: 'Settings' }))[0]!);
    const slider = await screen.findByLabelText<HTMLInputElement>('Size (% of image height)');
    expect([slider.min, slider.max, slider.value]).toEqual(['5', '100', '5']);
    expect(screen.getByText('5%')).toBeTruthy();
    fireEvent.change(slider, { target: { value: '30' } });
    expect(screen.getByText('30%')).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Size (% of image height)').min).toBe('10');
  });
});
