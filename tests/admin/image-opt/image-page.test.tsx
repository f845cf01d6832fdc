import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, renderApp, settingInfo } from '../helpers/render-app';
import { setUpImagePageEnvironment } from './page-environment';
import { historyRow, idleSchedule, idleTab, page, totals } from './fixtures';

const advance = setUpImagePageEnvironment();
const H = '/api/v2/image-opt/getImageOptDataPage';
const historyCalls = (api: ReturnType<typeof mockApi>) => api.callsTo(H).filter((c) => c.query.get('page_type') === '0');

function api(over: Record<string, unknown> = {}) {
  return mockApi({
    '/api/v2/image-opt/getImgOptTotal': totals(),
    '/api/v2/image-opt/getOptSchedule': idleSchedule(),
    [H]: page([historyRow(1)]),
    '/api/v2/image-opt/getSettings': { ack: 1, data: totals().settings },
    ...over,
  });
}

describe('/image_optimisation', () => {
  it('auto-optimise is gated on settings: default settings open the first-set-up modal and save nothing', async () => {
    const calls = api({ '/api/v2/image-opt/getImgOptTotal': totals({ isDefault: 1 }) });
    renderApp('/image_optimisation');
    fireEvent.click(await screen.findByRole('switch', { name: 'Auto-optimize new images' }));
    const modal = await screen.findByRole('dialog', { name: 'First set up requirement' });
    expect(within(modal).getByRole('button', { name: 'Set up now' })).toBeTruthy();
    expect(calls.callsTo('/api/v2/image-opt/saveSettings')).toHaveLength(0);
  });

  it('one banner at a time: no rating before the first optimisation (the partner offer instead), then the rating alone', async () => {
    const fresh = totals();
    fresh.total.total_opt_num = 0;
    api({ '/api/v2/image-opt/getImgOptTotal': fresh });
    const first = renderApp('/image_optimisation', { info: settingInfo({ review_tips: 1, new_guide_status: 0 }) });
    expect(await screen.findByText('Collect product reviews with photos')).toBeTruthy();
    expect(screen.queryByText('How would you rate our app?')).toBeNull();
    first.unmount();
    api({ '/api/v2/image-opt/getImgOptTotal': totals() });
    renderApp('/image_optimisation', { info: settingInfo({ review_tips: 1, new_guide_status: 0 }) });
    expect(await screen.findByText('How would you rate our app?')).toBeTruthy();
    expect(screen.queryByText('Collect product reviews with photos')).toBeNull();
  });

  it('Upload is there from the first visit; before the first set-up it asks for that first', async () => {
    api({ '/api/v2/image-opt/getImgOptTotal': totals({ isDefault: 1 }) });
    renderApp('/image_optimisation');
    // Polaris renders a CSS-hidden measuring copy of the header's actions, visible to happy-dom (no CSS).
    fireEvent.click((await screen.findAllByRole('button', { name: 'Upload images to optimize' }))[0]!);
    expect(await screen.findByRole('dialog', { name: 'First set up requirement' })).toBeTruthy();
  });

  it('the toggle saves only auto_switch; while on the history refreshes every 3 s, off stops it', async () => {
    const calls = api({
      '/api/v2/image-opt/saveSettings': (c: { body: { auto_switch: number } }) => ({
        ack: 1,
        data: { ...totals().settings, auto_switch: c.body.auto_switch },
      }),
    });
    renderApp('/image_optimisation');
    const toggle = await screen.findByRole('switch', { name: 'Auto-optimize new images' });
    await waitFor(() => expect(historyCalls(calls)).toHaveLength(1));
    await advance(9000);
    expect(historyCalls(calls)).toHaveLength(1); // off: no refresh

    fireEvent.click(toggle);
    await waitFor(() => expect(calls.callsTo('/api/v2/image-opt/saveSettings')[0]?.body).toEqual({ auto_switch: 1 }));
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('true'));
    await advance(3000);
    expect(historyCalls(calls)).toHaveLength(2);
    await advance(3000);
    expect(historyCalls(calls)).toHaveLength(3);

    fireEvent.click(toggle);
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('false'));
    const after = historyCalls(calls).length;
    await advance(9000);
    expect(historyCalls(calls)).toHaveLength(after);
  });

  it('manual optimisation: progress polled every 6 s, completion toast, history reloaded 3 s later, polling stops', async () => {
    let schedule = idleSchedule();
    const calls = api({
      [H]: (c: { query: URLSearchParams }) =>
        c.query.get('page_type') === '1'
          ? page([historyRow(5, { title: 'Wool Hat', un_opt_num: 3, image_count: 3 })])
          : page([historyRow(1)]),
      '/api/v2/image-opt/reOptimize': () => {
        schedule = {
          ack: 1,
          data: {
            ...idleSchedule().data,
            product: {
              ...idleTab(1),
              process_type: 'optimize',
              page_type: 1,
              process_result: 0,
              opt_in: 3,
              opt_total: 3,
              status: 'running',
            },
          },
        };
        return { ack: 1, data: { job_id: 9, total: 3 } };
      },
      '/api/v2/image-opt/getOptSchedule': () => schedule,
    });
    renderApp('/image_optimisation');
    fireEvent.click(await screen.findByRole('button', { name: 'Manually optimize' }));
    const modal = await screen.findByRole('dialog', { name: 'Manually optimize' });
    const row = (await within(modal).findAllByText('Wool Hat'))[0]?.closest('tr');
    fireEvent.click(within(row as HTMLElement).getByRole('checkbox'));
    fireEvent.click(within(modal).getByRole('button', { name: 'Optimize now' }));
    await waitFor(() =>
      expect(calls.callsTo('/api/v2/image-opt/reOptimize')[0]?.body).toEqual({
        data_type: 1,
        data_list: [{ data_id: 5 }],
        re_opt_type: '',
        page_type: 1,
      }),
    );
    expect(await screen.findByText('Optimizing: Product')).toBeTruthy();

    const polls = () => calls.callsTo('/api/v2/image-opt/getOptSchedule').length;
    await advance(1000); // the early read
    expect(await screen.findByText('0 of 3 images processed')).toBeTruthy();
    const before = polls();
    await advance(6000);
    expect(polls()).toBe(before + 1);

    schedule = {
      ack: 1,
      data: {
        ...idleSchedule().data,
        product: {
          ...idleTab(1),
          process_type: 'optimize',
          page_type: 1,
          process_result: 1,
          opt_in: 0,
          opt_total: 3,
          status: 'done',
        },
      },
    };
    const historyBefore = historyCalls(calls).length;
    await advance(6000);
    expect(await screen.findByText('3 products images optimized')).toBeTruthy();
    expect(screen.queryByText('Optimizing: Product')).toBeNull();
    // the reload waits 3 s after the completion
    expect(historyCalls(calls)).toHaveLength(historyBefore);
    await advance(3100);
    expect(historyCalls(calls)).toHaveLength(historyBefore + 1);
    const done = polls();
    await advance(18000);
    expect(polls()).toBe(done);
  });

  it('a job that ends at the plan limit opens the plan-limit dialog', async () => {
    let schedule: unknown = {
      ack: 1,
      data: {
        ...idleSchedule().data,
        product: { ...idleTab(1), process_type: 'optimize', process_result: 0, opt_in: 5, opt_total: 5, status: 'running' },
      },
    };
    api({ '/api/v2/image-opt/getOptSchedule': () => schedule, '/api/v2/image-opt/getImgOptTotal': totals({ unOpt: 4 }) });
    renderApp('/image_optimisation');
    expect(await screen.findByText('Optimizing: Product')).toBeTruthy();
    schedule = {
      ack: 1,
      data: {
        ...idleSchedule().data,
        product: {
          ...idleTab(1),
          process_type: 'optimize',
          process_result: 1,
          opt_in: 4,
          opt_total: 5,
          status: 'plan_limit',
          plan_limit_message: 'There are 4 images that can be optimized.',
        },
      },
    };
    await advance(6000);
    const dialog = await screen.findByRole('dialog', { name: 'Plan Limit Reached' });
    expect(within(dialog).getByText('There are 4 images that can be optimized.')).toBeTruthy();
  });

  it('Stop calls stopImageOptTask and clears the progress panel', async () => {
    const running = {
      ack: 1,
      data: {
        ...idleSchedule().data,
        collection: { ...idleTab(2), process_type: 'reoptimize', process_result: 0, opt_in: 2, opt_total: 4, status: 'running' },
      },
    };
    const calls = api({
      '/api/v2/image-opt/getOptSchedule': running,
      '/api/v2/image-opt/stopImageOptTask': { ack: 1, data: { stopped: 1 } },
    });
    renderApp('/image_optimisation');
    // A job already running when the page opens is picked up.
    expect(await screen.findByText('Optimizing: Collection')).toBeTruthy();
    expect(screen.getByText('2 of 4 images processed')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(calls.callsTo('/api/v2/image-opt/stopImageOptTask')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByText('Optimizing: Collection')).toBeNull());
  });

  it('bulk Restore with only deleted rows selected shows the tab message and sends nothing', async () => {
    const calls = api({
      [H]: page([historyRow(1, { is_delete: 1, status: 'deleted' }), historyRow(2, { is_delete: 1, status: 'deleted' })]),
    });
    renderApp('/image_optimisation');
    await screen.findAllByText('Product 1');
    fireEvent.click(screen.getAllByRole('checkbox')[0] as HTMLElement); // select all on the page
    fireEvent.click((await screen.findAllByRole('button', { name: 'Restore' }))[0] as HTMLElement);
    expect(await screen.findByText('Select the correct state of the product operation')).toBeTruthy();
    expect(calls.callsTo('/api/v2/image-opt/restore')).toHaveLength(0);
  });

  it('bulk Re-optimize sends the selected rows from the history (page_type 0)', async () => {
    const calls = api({ '/api/v2/image-opt/reOptimize': { ack: 1, data: { job_id: 2, total: 2 } } });
    renderApp('/image_optimisation');
    const row = (await screen.findAllByText('Product 1'))[0]?.closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('checkbox'));
    fireEvent.click((await screen.findAllByRole('button', { name: 'Re-optimize' }))[0] as HTMLElement);
    await waitFor(() =>
      expect(calls.callsTo('/api/v2/image-opt/reOptimize')[0]?.body).toEqual({
        data_type: 1,
        data_list: [{ data_id: 1 }],
        re_opt_type: '',
        page_type: 0,
      }),
    );
  });

  it('bulk Restore from the history: the schedule is read 3 s later, then every 5 s while it runs', async () => {
    // Fake clock readings (Date.now is faked): when the restore was accepted and when each read came.
    let restoredAt = 0;
    const reads: number[] = [];
    const running = {
      ack: 1,
      data: {
        ...idleSchedule().data,
        product: { ...idleTab(1), process_type: 'restore', process_result: 0, opt_in: 1, opt_total: 1, status: 'running' },
      },
    };
    api({
      '/api/v2/image-opt/restore': () => {
        restoredAt = Date.now();
        return { ack: 1, data: { job_id: 3, total: 1 } };
      },
      '/api/v2/image-opt/getOptSchedule': () => {
        if (restoredAt) reads.push(Date.now() - restoredAt);
        return restoredAt ? running : idleSchedule();
      },
    });
    renderApp('/image_optimisation');
    const row = (await screen.findAllByText('Product 1'))[0]?.closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('checkbox'));
    fireEvent.click((await screen.findAllByRole('button', { name: 'Restore' }))[0] as HTMLElement);
    await waitFor(() => expect(restoredAt).toBeGreaterThan(0));
    await advance(2500);
    expect(reads, 'nothing read before 3 s').toEqual([]);
    await advance(13_000); // to 15.5 s: the read at 3 s, then the 5 s polls (5, 10, 15 s)
    // The fake clock also moves with real time while the test runs: a tolerance, not wall-clock luck.
    expect(reads.length).toBeGreaterThanOrEqual(4);
    expect(reads[0]).toBeGreaterThanOrEqual(3000);
    expect(reads[0]).toBeLessThan(3500);
    const polls = reads.slice(1).sort((a, b) => a - b);
    const gaps = polls.slice(1).map((t, i) => t - polls[i]!);
    for (const gap of gaps) expect(Math.abs(gap - 5000)).toBeLessThan(300);
  });

  it('page-size selector shows only wider than 550 px, 5 added in the small variant, and changing it asks for that page size', async () => {
    const calls = api();
    const view = renderApp('/image_optimisation');
    const select = await screen.findByLabelText('Rows per page');
    const values = (el: HTMLElement) => [...el.querySelectorAll('option')].map((o) => o.value);
    expect(values(select)).toEqual(['10', '30', '50', '70', '100']);
    fireEvent.change(select, { target: { value: '30' } });
    await waitFor(() => expect(historyCalls(calls).at(-1)?.query.get('pageSize')).toBe('30'));
    view.unmount();
    // The small variant (a narrow window that still shows the selector) adds 5.
    Object.defineProperty(window, 'innerWidth', { value: 700, configurable: true });
    const small = renderApp('/image_optimisation');
    const smallSelect = await screen.findByLabelText('Rows per page');
    expect(values(smallSelect)).toEqual(['5', '10', '30', '50', '70', '100']);
    fireEvent.change(smallSelect, { target: { value: '5' } });
    await waitFor(() => expect(historyCalls(calls).at(-1)?.query.get('pageSize')).toBe('5'));
    small.unmount();
    Object.defineProperty(window, 'innerWidth', { value: 500, configurable: true });
    renderApp('/image_optimisation');
    await screen.findAllByText('Product 1');
    expect(screen.queryByLabelText('Rows per page')).toBeNull();
  });

  it('search is sent 500 ms after the last keystroke', async () => {
    const calls = api();
    renderApp('/image_optimisation');
    await screen.findAllByText('Product 1');
    const box = screen.getByPlaceholderText('Search by title');
    fireEvent.change(box, { target: { value: 'ha' } });
    await advance(300);
    fireEvent.change(box, { target: { value: 'hat' } });
    await advance(450);
    expect(historyCalls(calls).some((c) => c.query.get('title'))).toBe(false);
    await advance(100);
    await waitFor(() => expect(historyCalls(calls).at(-1)?.query.get('title')).toBe('hat'));
    expect(historyCalls(calls).filter((c) => c.query.get('title') === 'ha')).toHaveLength(0);
  });

  it('stats, plan card: sizes, free plan red at 80 %, add-ons when above 0; Upgrade plan and the limit banner when used up', async () => {
    api({ '/api/v2/image-opt/getImgOptTotal': totals({ used: 150, all: 150, addons: 0, unOpt: 12 }) });
    renderApp('/image_optimisation');
    expect(await screen.findByText('3.00 MB')).toBeTruthy();
    expect(screen.getByText('300.00 KB')).toBeTruthy();
    expect(screen.getByText('42.50%')).toBeTruthy();
    expect(screen.getByText('Free Plan')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Image Quota' }).getAttribute('data-tone')).toBe('red');
    expect(screen.queryByRole('progressbar', { name: 'Add-ons' })).toBeNull();
    expect(screen.getAllByRole('button', { name: 'Upgrade plan' }).length).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: 'Manually optimize' })).toBeNull();
    expect(screen.getByText('There are 12 images that can be optimized.')).toBeTruthy();
  });

  it('paid plan: Premium Plan, bar not red, add-ons bar, overage reminder linking to the setting', async () => {
    api({ '/api/v2/image-opt/getImgOptTotal': totals({ used: 1000, all: 1000, addons: 200 }) });
    const view = renderApp('/image_optimisation', { info: settingInfo({ shop_level: 1 }) });
    expect(await screen.findByText('Premium Plan')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Image Quota' }).getAttribute('data-tone')).toBe('normal');
    expect(screen.getByRole('progressbar', { name: 'Add-ons' })).toBeTruthy();
    expect(screen.getByText('Remind: The quota limit has been reached')).toBeTruthy();
    fireEvent.click(screen.getByText('Allow extra images in Settings'));
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/setting'));
  });

  it('closed banners stay closed for the session', async () => {
    api({ '/api/v2/image-opt/getImgOptTotal': totals({ used: 150, all: 150 }) });
    const view = renderApp('/image_optimisation');
    await screen.findByText('Plan Limit Reached');
    const banner = screen.getByText('Plan Limit Reached').closest('.Polaris-Banner') as HTMLElement;
    fireEvent.click(within(banner).getByRole('button', { name: /dismiss/i }));
    await waitFor(() => expect(screen.queryByText('Plan Limit Reached')).toBeNull());
    view.unmount();
    renderApp('/image_optimisation');
    await screen.findByText('Free Plan');
    expect(screen.queryByText('Plan Limit Reached')).toBeNull();
  });
});
