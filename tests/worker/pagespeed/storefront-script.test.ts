import { describe, expect, it } from 'vitest';
import { PREFETCH_SCRIPT } from '../../../storefront-script/build/script-module';
import { PREFETCH_SCRIPT_PATH } from '../../../worker/routes/storefront';
import { call } from '../helpers';

describe('GET /storefront/prefetch.<version>.js', () => {
  it('serves the built script, immutable, with ETag and CORS', async () => {
    const res = await call(PREFETCH_SCRIPT_PATH, { headers: { Origin: 'https://shop.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('etag')).toBe(`"${PREFETCH_SCRIPT.version}"`);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const body = await res.text();
    expect(body).toBe(PREFETCH_SCRIPT.source);
    expect(body.startsWith('/*! speed-prefetch')).toBe(true);
  });

  it('answers 304 without a body when the ETag matches', async () => {
    const res = await call(PREFETCH_SCRIPT_PATH, { headers: { 'If-None-Match': `W/"other", "${PREFETCH_SCRIPT.version}"` } });
    expect(res.status).toBe(304);
    expect(await res.text()).toBe('');
    expect(res.headers.get('etag')).toBe(`"${PREFETCH_SCRIPT.version}"`);
  });

  it('sends an old version to the current one instead of a 404', async () => {
    const res = await call('/storefront/prefetch.0000000000.js', { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(PREFETCH_SCRIPT_PATH);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
  });

  it('serves the unversioned URL with a short, revalidated cache', async () => {
    const res = await call('/storefront/prefetch.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toMatch(/^public, max-age=300/);
    expect(await res.text()).toBe(PREFETCH_SCRIPT.source);
  });

  it('answers a CORS preflight and needs no authentication', async () => {
    const res = await call(PREFETCH_SCRIPT_PATH, {
      method: 'OPTIONS',
      headers: { Origin: 'https://shop.example', 'Access-Control-Request-Method': 'GET' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('keeps the script within its 1.5 KB gzipped budget', () => {
    expect(PREFETCH_SCRIPT.gzipBytes).toBeLessThanOrEqual(1536);
  });
});
