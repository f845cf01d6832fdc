import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { i18next } from '../../../admin/src/i18n';
import { mockApi, renderApp, settingInfo } from '../helpers/render-app';
import { historyRow, idleSchedule, idleTab, page, totals } from './fixtures';

// The image screens' copy all comes from the catalogues: English is swapped for a pseudo-locale that
// wraps each value in ⟦…⟧, and any text node with letters outside the brackets is a literal in a
// component. Sizes, percentages, dates and titles from the shop are data.
vi.setConfig({ testTimeout: 30_000 });
vi.mock('@shopify/polaris/locales/en.json', async (importOriginal) => {
  const deep = (v: unknown): unknown =>
    typeof v === 'string'
      ? `⟦${v}⟧`
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, deep(x)]))
        : v;
  const m = await importOriginal<{ default: Record<string, unknown> }>();
  return { default: deep(m.default) };
});

let original: Record<string, unknown>;
const wrap = (v: unknown): unknown =>
  typeof v === 'string'
    ? `⟦${v}⟧`
    : v && typeof v === 'object'
      ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, wrap(x)]))
      : v;
beforeAll(() => {
  original = i18next.getResourceBundle('en', 'translation') as Record<string, unknown>;
  i18next.addResourceBundle('en', 'translation', wrap(original), true, true);
});
afterAll(() => i18next.addResourceBundle('en', 'translation', original, true, true));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const DATA = /^[\s\d.,:;%$\-–—+−×/★·()|→]*$/;
const SIZE = /\d+\.\d{2} (KB|MB|GB)/g;
const SHOP_DATA = /Wool Hat|Product \d+|hat-\d+\.jpg|Nov \d+, \d{4}, \d+:\d+ (AM|PM)/g;

function literalTexts(): string[] {
  const found: string[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.parentElement || node.parentElement.closest('script, style, option')) continue;
    let rest = node.textContent ?? '';
    for (let prev = ''; prev !== rest;) [prev, rest] = [rest, rest.replace(/⟦[^⟦⟧]*⟧/g, '')];
    rest = rest.replace(SIZE, '').replace(SHOP_DATA, '');
    if (!DATA.test(rest)) found.push((node.textContent ?? '').trim());
  }
  return found;
}

const image = (id: number, over: Record<string, unknown> = {}) => ({
  id,
  img_id: String(id),
  opt_id: 7,
  src: '',
  alt: '',
  file_name: `hat-${id}.jpg`,
  file_type: 'jpg',
  img_size: 500_000,
  comp_size: 250_000,
  comp_ratio: 50,
  before_file_path: 'https://a/b',
  after_file_path: 'https://a/c',
  is_compress: 1,
  is_to_jpg: 1,
  is_edit_alt: 1,
  is_edit_name: 1,
  is_watermark: 1,
  is_restore: 0,
  is_overdue: 0,
  is_delete: 0,
  ...over,
});

function api() {
  return mockApi({
    '/api/v2/image-opt/getImgOptTotal': totals({ used: 150, all: 150, addons: 100 }),
    '/api/v2/image-opt/getOptSchedule': {
      ack: 1,
      data: {
        ...idleSchedule().data,
        product: { ...idleTab(1), process_type: 'optimize', process_result: 0, opt_in: 1, opt_total: 3, status: 'running' },
      },
    },
    '/api/v2/image-opt/getImageOptDataPage': page([
      historyRow(1, { title: 'Wool Hat' }),
      historyRow(2, { status: 'implement' }),
      historyRow(3, { status: 'restored' }),
      historyRow(4, { is_delete: 1 }),
    ]),
    '/api/v2/image-opt/getSettings': { ack: 1, data: totals().settings },
    '/api/v2/image-opt/getProductImagesData': {
      ack: 1,
      data: {
        data: [
          image(1),
          image(2, { is_restore: 1 }),
          image(3, { is_overdue: 1 }),
          image(4, { is_delete: 1 }),
          image(5, { is_compress: 0 }),
        ],
        total: 5,
        item: { id: 7, data_type: 1, title: 'Wool Hat' },
      },
    },
  });
}

describe('no literal strings on the image screens', () => {
  it('/image_optimisation with banners, progress, history, and every modal and the sheet', async () => {
    api();
    const view = renderApp('/image_optimisation', { info: settingInfo({ shop_level: 1, review_tips: 1 }) });
    await screen.findAllByText(/Wool Hat/);
    await waitFor(() => expect(document.body.textContent).toContain('⟦Stop⟧'));
    expect(literalTexts()).toEqual([]);
    fireEvent.click(screen.getAllByRole('button', { name: /Upgrade plan/ })[0] as HTMLElement);
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/pricing'));
    view.unmount();

    api();
    mockApi({
      '/api/v2/image-opt/getImgOptTotal': totals(),
      '/api/v2/image-opt/getOptSchedule': idleSchedule(),
      '/api/v2/image-opt/getImageOptDataPage': page([historyRow(1, { title: 'Wool Hat' })]),
      '/api/v2/image-opt/getSettings': { ack: 1, data: totals().settings },
    });
    renderApp('/image_optimisation');
    fireEvent.click(await screen.findByRole('button', { name: /Manually optimize/ }));
    await screen.findAllByText(/Wool Hat/);
    // the manual modal is loaded on use (issue 26): wait for it before reading it
    const cancel = await screen.findAllByRole('button', { name: /Cancel/ });
    expect(literalTexts()).toEqual([]);
    fireEvent.click(cancel[0] as HTMLElement);
    // The header's buttons have a measuring copy (hidden by Polaris' CSS, which happy-dom does not apply).
    fireEvent.click(screen.getAllByRole('button', { name: /Upload images to optimize/ })[0] as HTMLElement);
    await screen.findByRole('dialog', { name: /Upload images to optimize/ });
    expect(literalTexts()).toEqual([]);
    fireEvent.click(screen.getAllByRole('button', { name: /Cancel/ })[0] as HTMLElement);
    fireEvent.click(screen.getAllByRole('button', { name: /^⟦Settings⟧$/ })[0] as HTMLElement);
    await screen.findByRole('dialog', { name: /Settings/ });
    await screen.findAllByText(/Select optimization mode/);
    expect(literalTexts()).toEqual([]);
  });

  it('/image_optimisation_details with every status and the compare modal', async () => {
    api();
    const view = renderApp('/image_optimisation');
    await screen.findAllByText(/Wool Hat/);
    act(
      () =>
        void view.router.navigate({ to: '/image_optimisation_details', state: (s) => ({ ...s, prodId: 7, title: 'Wool Hat' }) }),
    );
    await screen.findAllByText('hat-1.jpg');
    expect(literalTexts()).toEqual([]);
    fireEvent.click(screen.getAllByRole('button', { name: /⟦View⟧/ })[0] as HTMLElement);
    await screen.findByRole('slider');
    expect(literalTexts()).toEqual([]);
  });
});
