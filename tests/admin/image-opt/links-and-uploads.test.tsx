import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, renderApp } from '../helpers/render-app';
import { historyRow, idleSchedule, idleTab, page, totals } from './fixtures';
import { setUpImagePageEnvironment } from './page-environment';

// Issue 15: optimised uploads (Other tab) and a deleted product's images stay viewable and
// downloadable for 30 days; signed links keep working on a page left open past their lifetime.
setUpImagePageEnvironment();
const H = '/api/v2/image-opt/getImageOptDataPage';
const D = '/api/v2/image-opt/getProductImagesData';

const link = (id: number, side: string, exp: number) => `https://app.example.com/files/1/${id}/${side}?exp=${exp}&sig=s${exp}`;
const imageRow = (id: number, exp: number, over: Record<string, unknown> = {}) => ({
  id,
  img_id: `u-${id}`,
  opt_id: 40 + id,
  src: '',
  alt: '',
  file_name: `upload-${id}.jpg`,
  file_type: 'jpg',
  img_size: 500_000,
  comp_size: 200_000,
  comp_ratio: 60,
  before_file_path: link(id, 'before', exp),
  after_file_path: link(id, 'after', exp),
  is_compress: 1,
  is_to_jpg: 0,
  is_edit_alt: 0,
  is_edit_name: 0,
  is_watermark: 0,
  is_restore: 0,
  is_overdue: 0,
  is_delete: 0,
  ...over,
});

function clicks() {
  const clicked: string[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push(this.href);
  });
  return clicked;
}

describe('Other tab: optimised uploads', () => {
  it('shows a thumbnail; View opens original and result; Download reads the links on use (data_type 4) and fetches either file', async () => {
    let exp = Date.now() + 3_600_000;
    const api = mockApi({
      '/api/v2/image-opt/getImgOptTotal': totals(),
      '/api/v2/image-opt/getOptSchedule': idleSchedule(),
      [H]: (c: { query: URLSearchParams }) =>
        c.query.get('data_type') === '4'
          ? page([historyRow(31, { data_type: 4, title: 'banner.jpg', comp_ratio: 60, image: link(31, 'after', exp) })])
          : page([historyRow(1)]),
      [D]: () => ({
        ack: 1,
        data: {
          data: [imageRow(31, exp)],
          total: 1,
          current_page: 1,
          per_page: 10,
          item: { id: 31, data_type: 4, title: 'banner.jpg' },
        },
      }),
      '/api/v2/image-opt/updateIsDownload': { ack: 1 },
    });
    const clicked = clicks();
    renderApp('/image_optimisation');
    await screen.findByText('Optimization History');
    // Polaris shows the tabs that fit its measured width; happy-dom measures 0 without this.
    vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockReturnValue(1000);
    fireEvent(window, new Event('resize'));
    fireEvent.click(
      await waitFor(() => document.getElementById('history-other') ?? Promise.reject(new Error('no tab')), { timeout: 5000 }),
    );
    await waitFor(() => expect(api.callsTo(H).map((c) => c.query.get('data_type'))).toContain('4'));
    const row = (await screen.findAllByText('banner.jpg'))[0]!.closest('tr') as HTMLElement;
    // A thumbnail like the other tabs: the signed link of the upload's result (issue 23).
    expect(row.querySelector('img')?.getAttribute('src')).toBe(link(31, 'after', exp));
    fireEvent.click(within(row).getByRole('button', { name: 'View' }));
    const compare = await screen.findByRole('dialog', { name: 'Compress images without losing quality' });
    await waitFor(() => expect(compare.querySelectorAll('img').length).toBeGreaterThan(0));
    expect(api.callsTo(D)[0]?.query.get('data_type')).toBe('4');
    fireEvent.click(within(compare).getAllByRole('button', { name: 'Close' })[0]!);

    exp = Date.now() + 7_200_000; // links signed later are different
    fireEvent.click(within(row).getByRole('button', { name: 'Download' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Original image' }));
    await waitFor(() => expect(clicked).toEqual([`${link(31, 'before', exp)}&download=1`]));
    fireEvent.click(within(row).getByRole('button', { name: 'Download' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Optimized image' }));
    await waitFor(() => expect(clicked[1]).toBe(`${link(31, 'after', exp)}&download=1`));
    await waitFor(() => expect(api.callsTo('/api/v2/image-opt/updateIsDownload')[0]?.body).toEqual({ opt_id: '71' }));
  });
});

describe('a deleted product', () => {
  it('its history row still opens Details, where images within 30 days can be viewed and downloaded', async () => {
    mockApi({
      '/api/v2/image-opt/getImgOptTotal': totals(),
      '/api/v2/image-opt/getOptSchedule': { ack: 1, data: idleTab(1) },
      [H]: page([historyRow(8, { title: 'Gone Hat', is_delete: 1, status: 'deleted' })]),
      [D]: {
        ack: 1,
        data: {
          data: [imageRow(81, Date.now() + 3_600_000, { is_delete: 1, file_name: 'gone.jpg' })],
          total: 1,
          current_page: 1,
          per_page: 10,
          item: { id: 8, data_type: 1, title: 'Gone Hat' },
        },
      },
    });
    const { router } = renderApp('/image_optimisation');
    const row = (await screen.findAllByText('Gone Hat'))[0]!.closest('tr') as HTMLElement;
    const details = within(row).getByRole('button', { name: 'Details' });
    expect(details.getAttribute('aria-disabled')).not.toBe('true');
    fireEvent.click(details);
    await waitFor(() => expect(router.state.location.pathname).toBe('/image_optimisation_details'));
    const imageLine = (await screen.findAllByText('gone.jpg'))[0]!.closest('tr') as HTMLElement;
    expect(within(imageLine).getByText('Deleted')).toBeTruthy();
    expect(within(imageLine).getByRole('button', { name: 'View' })).toBeTruthy();
    expect(within(imageLine).getByRole('button', { name: 'Download' })).toBeTruthy();
    expect(within(imageLine).queryByRole('button', { name: 'Restore' })).toBeNull();
  });
});

describe('links on a page left open', () => {
  it('an expired link is read again before Download and View use it', async () => {
    let exp = Date.now() + 3_600_000;
    const first = exp;
    const api = mockApi({
      '/api/v2/image-opt/getImgOptTotal': totals(),
      '/api/v2/image-opt/getOptSchedule': { ack: 1, data: idleTab(1) },
      [H]: page([historyRow(7, { title: 'Wool Hat' })]),
      [D]: () => ({
        ack: 1,
        data: {
          data: [imageRow(70, exp, { file_name: 'wool.jpg' })],
          total: 1,
          current_page: 1,
          per_page: 10,
          item: { id: 7, data_type: 1, title: 'Wool Hat' },
        },
      }),
      '/api/v2/image-opt/updateIsDownload': { ack: 1 },
    });
    const clicked = clicks();
    const view = renderApp('/image_optimisation');
    await screen.findByText('Optimization History');
    act(
      () =>
        void view.router.navigate({ to: '/image_optimisation_details', state: (s) => ({ ...s, prodId: 7, title: 'Wool Hat' }) }),
    );
    const line = () => screen.getAllByText('wool.jpg')[0]!.closest('tr') as HTMLElement;
    await screen.findAllByText('wool.jpg');
    const reads = api.callsTo(D).length;

    // Still valid: used as listed, nothing read again.
    fireEvent.click(within(line()).getByRole('button', { name: 'Download' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Original image' }));
    await waitFor(() => expect(clicked).toEqual([`${link(70, 'before', first)}&download=1`]));
    expect(api.callsTo(D).length).toBe(reads);

    // Two hours later the listed links have expired: the page asks for fresh ones first.
    vi.setSystemTime(Date.now() + 2 * 3_600_000);
    exp = Date.now() + 3_600_000;
    fireEvent.click(within(line()).getByRole('button', { name: 'Download' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Original image' }));
    await waitFor(() => expect(clicked[1]).toBe(`${link(70, 'before', exp)}&download=1`));
    expect(api.callsTo(D).length).toBe(reads + 1);

    vi.setSystemTime(Date.now() + 2 * 3_600_000);
    exp = Date.now() + 3_600_000;
    fireEvent.click(within(line()).getByRole('button', { name: 'View' }));
    const compare = await screen.findByRole('dialog', { name: 'Compress images without losing quality' });
    await waitFor(() =>
      expect([...compare.querySelectorAll('img')].some((i) => i.getAttribute('src') === link(70, 'after', exp))).toBe(true),
    );
  });
});

describe('the history area (image-optimisation.md sections 2 and 4)', () => {
  const base = {
    '/api/v2/image-opt/getImgOptTotal': totals(),
    '/api/v2/image-opt/getOptSchedule': idleSchedule(),
    '/api/v1/getRecommendedApps': { code: '200', data: { iframe: null, partner: { title: '', apps: [] } } },
  };

  it('shows the catalogue statuses: Finished, In progress, Monitoring..., Restored, Deleted', async () => {
    mockApi({
      ...base,
      [H]: page([
        historyRow(1, { title: 'Finished hat' }),
        historyRow(2, { title: 'Busy hat', status: 'implement', opt_status: 1 }),
        historyRow(3, { title: 'Watched hat', status: 'monitor' }),
        historyRow(4, { title: 'Restored hat', status: 'restored', opt_status: 3 }),
        historyRow(5, { title: 'Gone hat', status: 'deleted', is_delete: 1 }),
      ]),
    });
    renderApp('/image_optimisation');
    const statusOf = async (title: string) =>
      ((await screen.findAllByText(title))[0]!.closest('tr') as HTMLElement).querySelector('.Polaris-Badge')?.textContent;
    expect(await statusOf('Finished hat')).toMatch(/Finished$/); // after Polaris' hidden tone label
    expect(await statusOf('Busy hat')).toMatch(/In progress$/); // after Polaris' hidden tone label
    expect(await statusOf('Watched hat')).toMatch(/Monitoring\.\.\.$/);
    expect(await statusOf('Restored hat')).toMatch(/Restored$/); // after Polaris' hidden tone label
    expect(await statusOf('Gone hat')).toMatch(/Deleted$/); // after Polaris' hidden tone label
  });

  it('a row with failed images says so with the reason (decisions.md: Failed with its reason shown in history)', async () => {
    mockApi({
      ...base,
      [H]: page([
        historyRow(1, {
          title: 'Stuck hat',
          fail_num: 2,
          fail_reason: { message_key: 'server.optimise.changedNotRestored', params: {} },
        }),
        historyRow(2, { title: 'Fine hat', fail_num: 0, fail_reason: null }),
      ]),
    });
    renderApp('/image_optimisation');
    const rowOf = async (title: string) => (await screen.findAllByText(title))[0]!.closest('tr') as HTMLElement;
    const stuck = within(await rowOf('Stuck hat'));
    expect(stuck.getByText(/Failed: 2$/)).toBeTruthy();
    expect(stuck.getByText('This image was changed in Shopify after it was optimized, so it was not restored.')).toBeTruthy();
    expect(within(await rowOf('Fine hat')).queryByText(/Failed/)).toBeNull();
  });

  it('links /admin/on-page-seo/index (the partner apps) and /recommended-apps', async () => {
    mockApi({ ...base, [H]: page([historyRow(1)]) });
    const { router } = renderApp('/image_optimisation');
    fireEvent.click(await screen.findByRole('button', { name: 'On-page SEO' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/recommended-apps'));
    // The reference opens the partner apps' tab.
    await waitFor(() => expect(document.getElementById('partner-apps')?.getAttribute('aria-selected')).toBe('true'));
    void router.navigate({ to: '/image_optimisation' });
    fireEvent.click(await screen.findByRole('button', { name: 'Recommended apps' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/recommended-apps'));
    await waitFor(() => expect(document.getElementById('all-apps')?.getAttribute('aria-selected')).toBe('true'));
  });
});
