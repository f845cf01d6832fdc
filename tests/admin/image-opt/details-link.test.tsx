// The details screen is addressable (issue 26 follow-up): `/image_optimisation_details?item=<id>` opens the
// item it names without any history state (Shopify's admin reloads the app at its path; a bookmark, a shared
// link, a new tab), an id that is not the shop's shows that it is not there and nothing else, and the
// history's Details button puts the item in the address. The Worker side: tests/worker/history/
// history-api.test.ts (the read), tests/worker/shopify/document-render.test.ts (the rendered item).
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { itemImagesRead } from '../../../shared/api/first-reads';
import { detailsSearch } from '../../../admin/src/router';
import { mockApi, renderApp } from '../helpers/render-app';
import { historyRow, idleTab, page, totals } from './fixtures';
import { setUpImagePageEnvironment } from './page-environment';

setUpImagePageEnvironment();
const D = '/api/v2/image-opt/getProductImagesData';

const imageRow = (id: number, file_name: string) => ({
  id,
  img_id: `gid://shopify/MediaImage/${id}`,
  opt_id: 7,
  src: '',
  alt: '',
  file_name,
  file_type: 'jpg',
  img_size: 589_271,
  comp_size: 289_280,
  comp_ratio: 50.91,
  before_file_path: `https://app.example.com/files/1/${id}/before?sig=a`,
  after_file_path: `https://app.example.com/files/1/${id}/after?sig=b`,
  is_compress: 1,
  is_to_jpg: 0,
  is_edit_alt: 0,
  is_edit_name: 0,
  is_watermark: 0,
  is_restore: 0,
  is_overdue: 0,
  is_delete: 0,
});

const item = {
  ack: 1,
  data: {
    data: [imageRow(1, 'hat-front.jpg'), imageRow(2, 'hat-side.jpg')],
    total: 2,
    current_page: 1,
    per_page: 10,
    item: { id: 7, data_type: 2, title: 'Winter collection' },
  },
};
const NOT_FOUND = {
  ack: 0,
  message: "This item is not in this store's optimization history.",
  message_key: 'server.optimise.itemNotFound',
  params: {},
};

function api(detail: unknown = item) {
  return mockApi({
    '/api/v2/image-opt/getImgOptTotal': totals(),
    '/api/v2/image-opt/getOptSchedule': { ack: 1, data: idleTab(2) },
    '/api/v2/image-opt/getImageOptDataPage': page([historyRow(7, { title: 'Winter collection' })]),
    [D]: detail,
  });
}

describe('a link to the details screen', () => {
  it('opens the item its address names, with no history state: its title, type and images from the read', async () => {
    const calls = api();
    renderApp('/image_optimisation_details?item=7');
    expect((await screen.findAllByText('hat-front.jpg')).length).toBeGreaterThan(0);
    expect(screen.getAllByText('hat-side.jpg').length).toBeGreaterThan(0);
    expect(screen.getByText('Winter collection')).toBeTruthy(); // the subtitle, from the read
    expect(screen.getByRole('tab', { name: 'Collection' })).toBeTruthy(); // data_type 2
    expect(screen.getByText(/Image data is kept for 30 days only/)).toBeTruthy();
    // The read the Worker makes for the document of this address (shared/api/first-reads.ts) is this very
    // URL: the answer it writes into the document is the one the screen takes.
    const first = calls.callsTo(D)[0]!;
    expect(`${first.path}?${first.query.toString()}`).toBe(itemImagesRead(new URLSearchParams('item=7')));
  });

  it("an id that is not the shop's item says so on the page, shows nothing else and no error toast", async () => {
    const calls = api(NOT_FOUND);
    renderApp('/image_optimisation_details?item=99');
    expect(await screen.findByText('Item not found')).toBeTruthy();
    // Once, in the card (a toast would say it a second time).
    expect(screen.getAllByText("This item is not in this store's optimization history.")).toHaveLength(1);
    expect(screen.queryByText(/Image data is kept for 30 days only/)).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
    expect(calls.callsTo(D)[0]?.query.get('prod_id')).toBe('99');
    // No job is followed for an item that is not there.
    expect(calls.callsTo('/api/v2/image-opt/getOptSchedule')).toHaveLength(0);
  });

  it('an address whose item is not an id names no item: the empty state, nothing read', async () => {
    const calls = api();
    renderApp('/image_optimisation_details?item=abc');
    expect(await screen.findByText('Image optimization details')).toBeTruthy();
    expect(await screen.findByText('No data to show here')).toBeTruthy();
    expect(screen.queryAllByText('hat-front.jpg')).toHaveLength(0);
    expect(calls.callsTo(D)).toHaveLength(0);
    for (const bad of ['abc', '-1', '0', '1.5', '', '9007199254740993', ['7']])
      expect(detailsSearch({ item: bad }), String(bad)).toEqual({ item: undefined });
    expect(detailsSearch({ item: 7 })).toEqual({ item: 7 });
    expect(detailsSearch({ item: '007' })).toEqual({ item: 7 });
    expect(itemImagesRead(new URLSearchParams('item=-1'))).toBeNull();
  });

  it("the history's Details button puts the item in the address (a reload opens it again)", async () => {
    api();
    const { router } = renderApp('/image_optimisation');
    const row = (await screen.findAllByText('Winter collection'))[0]!.closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Details' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/image_optimisation_details'));
    expect(router.state.location.search).toEqual({ item: 7 });
    expect(router.state.location.href).toBe('/image_optimisation_details?item=7');
    expect((await screen.findAllByText('hat-front.jpg')).length).toBeGreaterThan(0);
  });
});
