// The calls bench:store makes, each the one a merchant's action causes: the emulator's control API for
// what the merchant does in Shopify (add a product with its photo), and the admin's own API calls for what
// they do in the app (admin/src/api/calls.ts): the settings sheet's save, the manual modal's list and
// "Optimize now", and the progress panel's polling.
import type { ImageSettings } from '../../shared/image-settings';
import type { RunningProduct } from './store-product';

type Ack<T = unknown> = { ack: number; message?: string; data?: T };

async function api<T>(p: RunningProduct, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Ack<T>> {
  const send = () =>
    fetch(`${p.base}${path}`, {
      method,
      headers: {
        Accept: 'application/json',
        Authorization: `Bearer ${p.token}`,
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  let res = await send();
  // A read that met a 5xx is asked again, as the admin's next poll would; a POST is never repeated.
  for (let i = 0; method === 'GET' && res.status >= 500 && i < 3; i++) {
    console.log(`  (${method} ${path.split('?')[0]} answered ${res.status}; asking again)`);
    await new Promise((r) => setTimeout(r, 2000));
    res = await send();
  }
  const json = (await res.json().catch(() => null)) as Ack<T> | null;
  if (!json) throw new Error(`${method} ${path} answered ${res.status} without JSON`);
  return json;
}

function ok<T>(what: string, r: Ack<T>): T {
  if (r.ack !== 1) throw new Error(`${what} refused: ${JSON.stringify(r).slice(0, 300)}`);
  return r.data as T;
}

// ---- the merchant in Shopify (emulator control API) ------------------------------------------------

export type StoreProduct = {
  id: string;
  title: string;
  media: {
    id: string;
    url: string;
    size: number;
    sha256: string;
    status: string;
    width: number;
    height: number;
    mimeType: string;
  }[];
};

/** Adds a product with one photo (products/create follows, which the app's catalogue sync consumes). */
export async function addProduct(p: RunningProduct, title: string, bytes: Uint8Array, filename: string): Promise<StoreProduct> {
  const res = await fetch(`${p.emulator}/__emulator/shops/${p.shop}/products`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      title,
      status: 'ACTIVE',
      published: true,
      images: [{ base64: Buffer.from(bytes).toString('base64'), filename, alt: title }],
    }),
  });
  if (res.status !== 201) throw new Error(`adding product ${title} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  return (await res.json()) as StoreProduct;
}

export async function storeProducts(p: RunningProduct): Promise<StoreProduct[]> {
  const res = await fetch(`${p.emulator}/__emulator/shops/${p.shop}/products`);
  if (!res.ok) throw new Error(`listing products answered ${res.status}`);
  return (await res.json()) as StoreProduct[];
}

/** The bytes the storefront gets: the CDN URL Shopify now serves for the image. */
export async function servedBytes(url: string): Promise<Uint8Array> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

// ---- the merchant in the app (the admin's calls) --------------------------------------------------

/**
 * The settings sheet: load (getSettings), change the draft, save (saveSettings with the whole draft).
 * Compression on for all products at a level (1 Low 90, 2 Medium 75, 3 High 70; not custom, not
 * lossless), no watermark, PNG to JPG as asked, manual mode (auto off) so nothing runs before "Optimize
 * now"; alt text and file names as they are.
 */
export async function saveLevelSettings(p: RunningProduct, level: 1 | 2 | 3 = 2, pngToJpg = false): Promise<void> {
  const current = ok('getSettings', await api<ImageSettings>(p, 'GET', '/api/v2/image-opt/getSettings'));
  const draft: ImageSettings = {
    ...current,
    auto_switch: 0,
    image_opt: {
      ...current.image_opt,
      switch: 1,
      product: 1,
      pngtojpg: pngToJpg ? 1 : 0,
      watermark: { ...current.image_opt.watermark, switch: 0 },
      quality: { ...current.image_opt.quality, custom: 0, lossless: 0, level },
    },
  };
  const saved = ok('saveSettings', await api<ImageSettings>(p, 'POST', '/api/v2/image-opt/saveSettings', draft));
  const q = saved.image_opt?.quality;
  if (!q || q.level !== level || q.custom !== 0 || q.lossless !== 0 || saved.image_opt.switch !== 1)
    throw new Error(`settings not saved at level ${level}: ${JSON.stringify(saved.image_opt)}`);
  if ((saved.image_opt.pngtojpg === 1) !== pngToJpg) throw new Error(`PNG to JPG not saved as ${pngToJpg}`);
}

export type ManualRow = { id: number; title: string; image_count?: number; un_opt_num?: number };

/** The manual modal's Product tab (page_type 1), searched by title as its search field does. */
export async function manualList(p: RunningProduct, title: string): Promise<ManualRow[]> {
  const rows: ManualRow[] = [];
  for (let page = 1; ; page++) {
    const q = new URLSearchParams({ page: String(page), pageSize: '100', title, data_type: '1', page_type: '1' });
    const d = ok(
      'getImageOptDataPage',
      await api<{ data: ManualRow[]; total: number }>(p, 'GET', `/api/v2/image-opt/getImageOptDataPage?${q}`),
    );
    rows.push(...d.data);
    if (rows.length >= d.total || d.data.length === 0) return rows;
  }
}

/** "Optimize now" with the selected rows: reOptimize page_type 1, as manual-modal.tsx sends it. */
export async function optimiseNow(p: RunningProduct, rowIds: number[]): Promise<{ job_id: string | number; total: number }> {
  return ok(
    'reOptimize',
    await api<{ job_id: string | number; total: number }>(p, 'POST', '/api/v2/image-opt/reOptimize', {
      data_type: 1,
      data_list: rowIds.map((id) => ({ data_id: id })),
      re_opt_type: '',
      page_type: 1,
    }),
  );
}

export type TabSchedule = {
  data_type: number;
  process_type: string;
  page_type: number;
  process_result: number;
  opt_in: number;
  opt_total: number;
  opt_done?: number;
  opt_failed?: number;
  status: string;
  plan_limit_message: string | null;
};

/** The progress panel's read: getOptSchedule without data_type, the Product tab's entry. */
export async function productSchedule(p: RunningProduct): Promise<TabSchedule | undefined> {
  const all = ok('getOptSchedule', await api<Record<string, TabSchedule>>(p, 'GET', '/api/v2/image-opt/getOptSchedule'));
  return all.product;
}

/** admin/src/image-opt/rules.ts isRunning: the panel polls while this holds. */
export const isRunning = (s: TabSchedule | undefined) =>
  !!s && s.process_result !== 1 && (s.status === 'queued' || s.status === 'running');

/** The item's detail rows (getProductImagesData), for each image's status after the job. */
export async function itemImages(p: RunningProduct, rowId: number): Promise<Record<string, unknown>[]> {
  const q = new URLSearchParams({ prod_id: String(rowId), page: '1', pageSize: '10', data_type: '1' });
  return ok(
    'getProductImagesData',
    await api<{ data: Record<string, unknown>[] }>(p, 'GET', `/api/v2/image-opt/getProductImagesData?${q}`),
  ).data;
}

// ---- the store's webhooks (the emulator's control API) ----------------------------------------------

/**
 * Whether the emulator posts webhooks at once (npm start's setting) or keeps them pending until
 * deliverWebhooks: bench:store keeps them pending while an image job is measured, so the catalogue sync
 * that our fileUpdate's products/update starts (the HTTP Worker's work in production) is measured apart.
 */
export async function holdWebhooks(p: RunningProduct, hold: boolean): Promise<void> {
  const res = await fetch(`${p.emulator}/__emulator/shops/${p.shop}/settings`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ deliverWebhooks: !hold }),
  });
  if (!res.ok) throw new Error(`the emulator's settings answered ${res.status}`);
}

/** Posts every pending webhook to the app now; answers how many were delivered. */
export async function deliverWebhooks(p: RunningProduct): Promise<number> {
  const res = await fetch(`${p.emulator}/__emulator/shops/${p.shop}/webhooks/deliver`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{}',
  });
  if (!res.ok) throw new Error(`delivering webhooks answered ${res.status}`);
  return ((await res.json()) as unknown[]).length;
}
