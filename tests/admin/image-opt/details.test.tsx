import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, renderApp } from '../helpers/render-app';
import { idleTab } from './fixtures';
import { setUpImagePageEnvironment } from './page-environment';

const advance = setUpImagePageEnvironment();
const D = '/api/v2/image-opt/getProductImagesData';

const image = (id: number, over: Record<string, unknown> = {}) => ({
  id,
  img_id: `gid://shopify/MediaImage/${id}`,
  opt_id: 7,
  src: '',
  alt: '',
  file_name: `image-${id}.jpg`,
  file_type: 'jpg',
  img_size: 589_271,
  comp_size: 289_280,
  comp_ratio: 50.91,
  before_file_path: `http://app.example.com/files/1/${id}/before?sig=a`,
  after_file_path: `http://app.example.com/files/1/${id}/after?sig=b`,
  is_compress: 1,
  is_to_jpg: 0,
  is_edit_alt: 1,
  is_edit_name: 0,
  is_watermark: 1,
  is_restore: 0,
  is_overdue: 0,
  is_delete: 0,
  ...over,
});

const ROWS = [
  image(1, { file_name: 'compressed.jpg' }),
  image(2, { file_name: 'restored.jpg', is_restore: 1, is_compress: 0, after_file_path: '' }),
  image(3, { file_name: 'expired.jpg', is_overdue: 1, before_file_path: '' }),
  image(4, { file_name: 'deleted.jpg', is_delete: 1, before_file_path: '', after_file_path: '' }),
  image(6, { file_name: 'undone.jpg', is_restore: 1 }),
  image(8, { file_name: 'resized.jpg', width: 2048, height: 1365, orig_width: 6120, orig_height: 4080 }),
  image(9, {
    file_name: 'stripped.jpg',
    width: 6120,
    height: 4080,
    orig_width: 6120,
    orig_height: 4080,
    note: { message_key: 'server.optimise.metadataOnly', params: { mp: '25.0' } },
  }),
  image(5, {
    file_name: 'plain.jpg',
    is_compress: 0,
    is_edit_alt: 0,
    is_watermark: 0,
    before_file_path: '',
    after_file_path: '',
    img_size: 2 * 1048576,
  }),
];

function detailApi(over: Record<string, unknown> = {}) {
  return mockApi({
    '/api/v2/image-opt/getImgOptTotal': { ack: 1, total: {}, settings: {}, opt_schedule: {} },
    '/api/v2/image-opt/getOptSchedule': { ack: 1, data: idleTab(1) },
    '/api/v2/image-opt/getImageOptDataPage': { ack: 1, data: { data: [], total: 0 } },
    [D]: {
      ack: 1,
      data: { data: ROWS, total: ROWS.length, current_page: 1, per_page: 10, item: { id: 7, data_type: 1, title: 'Wool Hat' } },
    },
    ...over,
  });
}

async function openDetails() {
  const view = renderApp('/image_optimisation');
  await screen.findByText('Optimization History');
  // The history's Details button navigates like this: the item travels as navigation state.
  act(
    () =>
      void view.router.navigate({ to: '/image_optimisation_details', state: (s) => ({ ...s, prodId: 7, title: 'Wool Hat' }) }),
  );
  await screen.findAllByText('compressed.jpg');
  return view;
}

const rowOf = (name: string) => screen.getAllByText(name)[0]?.closest('tr') as HTMLElement;

describe('/image_optimisation_details', () => {
  it('asks for the item from the navigation state and shows labels, tags, sizes and the 30-day note', async () => {
    const api = detailApi();
    await openDetails();
    expect(api.callsTo(D)[0]?.query.get('prod_id')).toBe('7');
    expect(screen.getByText('Wool Hat')).toBeTruthy();
    expect(screen.getByText(/Image data is kept for 30 days only/)).toBeTruthy();
    const compressed = within(rowOf('compressed.jpg'));
    expect(compressed.getByText('Compressed')).toBeTruthy();
    expect(compressed.getByText('Alt text')).toBeTruthy();
    expect(compressed.getByText('Watermark')).toBeTruthy();
    expect(compressed.getByText('575.46 KB → 282.50 KB')).toBeTruthy();
    expect(compressed.getByText('50.91%')).toBeTruthy();
    expect(within(rowOf('restored.jpg')).getByText('Restored')).toBeTruthy();
    expect(within(rowOf('expired.jpg')).getByText('Expired')).toBeTruthy();
    expect(within(rowOf('deleted.jpg')).getByText('Deleted')).toBeTruthy();
    expect(within(rowOf('plain.jpg')).getByText('Not Compressed')).toBeTruthy();
    expect(within(rowOf('plain.jpg')).getByText('2.00 MB')).toBeTruthy();
    // Restored: the original is back, so no savings and no change tags, whatever flags the row kept.
    const undone = within(rowOf('undone.jpg'));
    expect(undone.getByText('575.46 KB')).toBeTruthy();
    expect(undone.getByText('0.00%')).toBeTruthy();
    expect(undone.queryByText('Watermark')).toBeNull();
    // Dimensions: before -> after when a resize changed them, once when not; the engine's limit, translated.
    expect(within(rowOf('resized.jpg')).getByText('6120 × 4080 → 2048 × 1365')).toBeTruthy();
    const stripped = within(rowOf('stripped.jpg'));
    expect(stripped.getByText('6120 × 4080')).toBeTruthy();
    expect(stripped.getByText(/Only the metadata was removed: at 25.0 MP this image is too large to re-encode/)).toBeTruthy();
  });

  it('a restorable image shows the date its original is deleted (decisions.md: the restore date the admin shows)', async () => {
    // Midday UTC: the same calendar day in every time zone the test may run in.
    const until = Date.UTC(2026, 11, 27, 12);
    detailApi({
      [D]: {
        ack: 1,
        data: {
          data: [
            image(1, { file_name: 'compressed.jpg', expires_at: until }),
            image(2, { file_name: 'restored.jpg', is_restore: 1, is_compress: 0, after_file_path: '', expires_at: until }),
            image(3, { file_name: 'expired.jpg', is_overdue: 1, before_file_path: '', expires_at: until }),
            image(5, { file_name: 'unknown.jpg', expires_at: null }),
          ],
          total: 4,
          current_page: 1,
          per_page: 10,
          item: { id: 7, data_type: 1, title: 'Wool Hat' },
        },
      },
    });
    await openDetails();
    expect(within(rowOf('compressed.jpg')).getByText('Can be restored until December 27, 2026')).toBeTruthy();
    // Nothing to restore, or no original any more: no date.
    for (const name of ['restored.jpg', 'expired.jpg', 'unknown.jpg'])
      expect(within(rowOf(name)).queryByText(/Can be restored until/)).toBeNull();
  });

  it('View / Download / Restore follow the image status', async () => {
    detailApi();
    await openDetails();
    const buttons = (name: string) =>
      within(rowOf(name))
        .queryAllByRole('button')
        .map((b) => b.textContent);
    expect(buttons('compressed.jpg')).toEqual(['View', 'Download', 'Restore']);
    expect(buttons('restored.jpg')).toEqual(['Download']);
    expect(buttons('expired.jpg')).toEqual(['Download']);
    expect(buttons('deleted.jpg')).toEqual([]);
    expect(buttons('plain.jpg')).toEqual([]);
    // Deleted and expired rows cannot be selected.
    expect(within(rowOf('deleted.jpg')).getByRole<HTMLInputElement>('checkbox').disabled).toBe(true);
    expect(within(rowOf('expired.jpg')).getByRole<HTMLInputElement>('checkbox').disabled).toBe(true);
  });

  it("Download goes over https and records the download; a missing link is 'Url is empty'", async () => {
    const api = detailApi({ '/api/v2/image-opt/updateIsDownload': { ack: 1 } });
    await openDetails();
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.href);
    });
    fireEvent.click(within(rowOf('restored.jpg')).getByRole('button', { name: 'Download' }));
    // The restored row has no optimised file any more: 'Url is empty', nothing opened.
    fireEvent.click(await screen.findByRole('button', { name: 'Optimized image' }));
    expect((await screen.findAllByText('Url is empty')).length).toBeGreaterThan(0);
    expect(clicked).toEqual([]);
    fireEvent.click(within(rowOf('restored.jpg')).getByRole('button', { name: 'Download' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Original image' }));
    expect(clicked).toEqual(['https://app.example.com/files/1/2/before?sig=a&download=1']);
    await waitFor(() => expect(api.callsTo('/api/v2/image-opt/updateIsDownload')[0]?.body).toEqual({ opt_id: '7' }));
  });

  it('Restore: the schedule is read 1.5 s later, then every 5 s until done; then the toast and a reload', async () => {
    let running = true;
    const api = detailApi({
      '/api/v2/image-opt/restore': { ack: 1, data: { job_id: 3, total: 1 } },
      '/api/v2/image-opt/getOptSchedule': () => ({
        ack: 1,
        data: running
          ? { ...idleTab(1), process_type: 'restore', process_result: 0, opt_in: 1, opt_total: 1, status: 'running' }
          : { ...idleTab(1), process_type: 'restore', opt_total: 1, status: 'done' },
      }),
    });
    await openDetails();
    fireEvent.click(within(rowOf('compressed.jpg')).getByRole('button', { name: 'Restore' }));
    await waitFor(() =>
      expect(api.callsTo('/api/v2/image-opt/restore')[0]?.body).toEqual({
        data_type: 1,
        data_list: [{ data_id: 7, img_ids: [1], restore_type: '' }],
      }),
    );
    const schedules = () =>
      api.callsTo('/api/v2/image-opt/getOptSchedule').filter((c) => c.query.get('data_type') === '1').length;
    const opened = schedules(); // the read on opening (it found the job running already: running is true from the start)
    await advance(1600);
    expect(schedules()).toBe(opened + 1);
    expect(await screen.findByText('The picture is being processed. View later.')).toBeTruthy();
    await advance(5000);
    expect(schedules()).toBe(opened + 2);
    running = false;
    const loads = api.callsTo(D).length;
    await advance(5000);
    expect(await screen.findByText('Your picture has been restored')).toBeTruthy();
    await waitFor(() => expect(api.callsTo(D).length).toBe(loads + 1));
    const done = schedules();
    await advance(15000);
    expect(schedules()).toBe(done);
  });

  it('a restore that failed says so with its reason, never "Your picture has been restored"', async () => {
    let running = true;
    detailApi({
      '/api/v2/image-opt/restore': { ack: 1, data: { job_id: 3, total: 1 } },
      '/api/v2/image-opt/getOptSchedule': () => ({
        ack: 1,
        data: running
          ? { ...idleTab(1), process_type: 'restore', process_result: 0, opt_in: 1, opt_total: 1, status: 'running' }
          : {
              ...idleTab(1),
              process_type: 'restore',
              opt_total: 1,
              opt_done: 0,
              opt_failed: 1,
              fail_reasons: [{ message_key: 'server.optimise.changedNotRestored', params: {} }],
              status: 'done',
            },
      }),
    });
    await openDetails();
    fireEvent.click(within(rowOf('compressed.jpg')).getByRole('button', { name: 'Restore' }));
    await advance(1600);
    running = false;
    await advance(5000);
    expect(
      await screen.findByText(
        '1 images could not be restored. This image was changed in Shopify after it was optimized, so it was not restored.',
      ),
    ).toBeTruthy();
    expect(screen.queryByText('Your picture has been restored')).toBeNull();
    expect(screen.queryByText('All your pictures have been restored')).toBeNull();
  });

  it('opening the page reads the schedule once; an idle tab is not announced and not polled', async () => {
    const api = detailApi({
      '/api/v2/image-opt/getOptSchedule': {
        ack: 1,
        data: { ...idleTab(1), process_type: 'restore', opt_total: 3, status: 'done' },
      },
    });
    await openDetails();
    const reads = () => api.callsTo('/api/v2/image-opt/getOptSchedule').filter((c) => c.query.get('data_type') === '1');
    await waitFor(() => expect(reads()).toHaveLength(1));
    await advance(11000);
    expect(reads()).toHaveLength(1);
    expect(screen.queryByText('Your picture has been restored')).toBeNull();
  });

  it('a failed restore clears the row loading and shows the server message', async () => {
    detailApi({ '/api/v2/image-opt/restore': { ack: 0, message: 'Image has expired' } });
    await openDetails();
    const button = within(rowOf('compressed.jpg')).getByRole('button', { name: 'Restore' });
    fireEvent.click(button);
    expect(await screen.findByText('Image has expired')).toBeTruthy();
    await waitFor(() => expect(button.getAttribute('aria-busy')).not.toBe('true'));
  });

  it('bulk Restore of rows that cannot be restored shows the validation message and sends nothing', async () => {
    const api = detailApi();
    await openDetails();
    fireEvent.click(within(rowOf('restored.jpg')).getByRole('checkbox'));
    fireEvent.click((await screen.findAllByRole('button', { name: 'Restore' })).find((b) => !b.closest('tr')) as HTMLElement);
    expect(await screen.findByText('Select the correct state of the image operation')).toBeTruthy();
    expect(api.callsTo('/api/v2/image-opt/restore')).toHaveLength(0);
  });

  it('bulk Re-optimize sends the chosen images of the item', async () => {
    const api = detailApi({ '/api/v2/image-opt/reOptimize': { ack: 1, data: { job_id: 4, total: 2 } } });
    await openDetails();
    fireEvent.click(within(rowOf('compressed.jpg')).getByRole('checkbox'));
    fireEvent.click(within(rowOf('restored.jpg')).getByRole('checkbox'));
    fireEvent.click((await screen.findAllByRole('button', { name: 'Re-optimize' }))[0] as HTMLElement);
    await waitFor(() =>
      expect(api.callsTo('/api/v2/image-opt/reOptimize')[0]?.body).toEqual({
        data_type: 1,
        data_list: [{ data_id: 7, img_ids: [1, 2] }],
        re_opt_type: '',
        page_type: 0,
      }),
    );
  });

  it('the back link returns to /image_optimisation', async () => {
    detailApi();
    const view = await openDetails();
    fireEvent.click(screen.getByRole('button', { name: 'Image optimization' }));
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/image_optimisation'));
  });
});
