import { env } from 'cloudflare:test';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import * as s from '../../../worker/db/schema';
import { call, createShop, db, sessionToken } from '../helpers';
import { apiRoutes, shopState } from './fuzz-support';

// The routes are read from the router itself (fuzz-support's apiRoutes), so a route added later cannot
// escape these checks.

function requestFor(
  method: string,
  path: string,
  headers: Record<string, string>,
  ids: { itemId: number; imageId: number; marker: string },
) {
  const q = new URLSearchParams({
    prod_id: String(ids.itemId),
    opt_id: String(ids.imageId),
    data_type: '1',
    page: '1',
    pageSize: '10',
    page_type: '0',
    title: ids.marker,
  });
  if (method === 'GET') return call(`${path}?${q}`, { headers });
  // One body that names the other shop's ids in every documented field that carries an id.
  const json = {
    opt_id: ids.imageId,
    data_type: 1,
    page_type: 0,
    re_opt_type: '',
    data_list: [{ data_id: ids.itemId, img_ids: [ids.imageId], restore_type: 'all' }],
    newLevel: 1,
    score: 3,
    name: 'extra_adver',
    st: 1,
    exp: 0,
    type: 'param',
    Language: 'fr',
    key: 'promo',
    value: '1',
    title: ids.marker,
    description: 'x',
    email: 'b@example.com',
  };
  return call(path, { method, headers, json });
}

/** A session token with full control of every claim (the shared helper fixes aud and exp). */
async function rawSessionToken(shopDomain: string, claims: { aud: string; exp: number; nbf: number }) {
  return new SignJWT({ iss: `https://${shopDomain}/admin`, dest: `https://${shopDomain}`, sub: '42', ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(env.SHOPIFY_API_SECRET));
}

describe('route sweep: credentials', () => {
  it('finds the documented API routes in the router', () => {
    const names = apiRoutes.map((r) => `${r.method} ${r.path}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'GET /api/v2/image-opt/getSettings',
        'POST /api/v2/image-opt/restore',
        'POST /api/v1/changePlans',
        'GET /api/v2/home/getPageSpeedScore',
      ]),
    );
    expect(apiRoutes.length).toBeGreaterThan(30);
  });

  it.each(apiRoutes.map((r) => [r.method, r.path]))(
    '%s %s refuses missing, short, forged and uninstalled credentials',
    async (method, path) => {
      const { shop } = await createShop();
      const { headers: uninstalled } = await createShop({ uninstalledAt: Date.now() });
      const forged = await sessionToken(shop.domain, {}, 'forged-secret-forged-secret-0000');
      const now = Math.floor(Date.now() / 1000);
      const expired = await rawSessionToken(shop.domain, { aud: env.SHOPIFY_API_KEY, exp: now - 120, nbf: now - 300 });
      const wrongAudience = await rawSessionToken(shop.domain, { aud: 'another-app', exp: now + 60, nbf: now });
      const before = await shopState(shop.id);
      for (const headers of [
        {},
        { Authorization: 'Bearer short' },
        { Authorization: `Bearer ${forged}` },
        { Authorization: `Bearer ${expired}` },
        { Authorization: `Bearer ${wrongAudience}` },
        uninstalled,
      ]) {
        const res = await call(path, { method, headers, ...(method === 'GET' ? {} : { json: { data_type: 1 } }) });
        expect(res.status, `${method} ${path} with ${JSON.stringify(headers).slice(0, 40)}`).toBe(401);
      }
      expect(await shopState(shop.id)).toBe(before);
    },
  );
});

describe('route sweep: isolation between shops', () => {
  it.each(apiRoutes.map((r) => [r.method, r.path]))('%s %s as shop B never reads or changes shop A', async (method, path) => {
    const marker = `SECRET-A-${crypto.randomUUID().slice(0, 8)}`;
    const { shop: a } = await createShop({ name: marker, email: `${marker}@example.com`, ownerName: marker });
    const item = await db()
      .insert(s.items)
      .values({ shopId: a.id, dataType: 1, resourceId: '777', title: marker, optStatus: 2 })
      .returning()
      .get();
    const image = await db()
      .insert(s.images)
      .values({
        shopId: a.id,
        itemId: item.id,
        imgId: `gid://shopify/MediaImage/${marker}`,
        src: `https://cdn.example/${marker}.jpg`,
        alt: marker,
        status: 'compressed',
        compressed: true,
        originalSize: 1000,
        optimisedSize: 500,
        optimisedAt: Date.now(),
        expiresAt: Date.now() + 86_400_000,
      })
      .returning()
      .get();
    await db()
      .insert(s.contactMessages)
      .values({ shopId: a.id, name: marker, email: `${marker}@example.com`, description: marker })
      .run();
    const { headers: bHeaders } = await createShop();
    const before = await shopState(a.id);

    const res = await requestFor(method, path, bHeaders, { itemId: item.id, imageId: image.id, marker });
    const text = await res.text();
    expect(res.status, `${method} ${path}: ${text.slice(0, 200)}`).toBeLessThan(500);
    expect(text).not.toContain(marker);
    expect(text).not.toContain(a.domain);
    expect(await shopState(a.id)).toBe(before);
  });
});
