import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { Hono } from 'hono';
import { describe, expect, it, vi } from 'vitest';
import indexHtml from '../../../admin/index.html?raw';
import { FIRST_READS_ID } from '../../../shared/api/first-reads';
import { serveDocument } from '../../../worker/document';
import { renderDocumentScreen } from '../../../worker/document-render';
import type { AppEnv } from '../../../worker/types';
import { createShop } from '../helpers';

// Issue 26: a first screen the Worker cannot render never costs the merchant the document: served whole,
// with an empty root (the admin renders in the browser as before) and its first reads.

const ASSETS = {
  fetch: async () => new Response(indexHtml, { headers: { 'Content-Type': 'text/html; charset=utf-8' } }),
} as unknown as Fetcher;

async function documentWith(render: Parameters<typeof serveDocument>[2], path: string) {
  const { app } = await import('../../../worker/app');
  const bindings = { ...env, ASSETS, SHOPIFY_ORIGIN: '' };
  const ctx = createExecutionContext();
  const doc = new Hono<AppEnv>().get('*', (c) =>
    serveDocument(c, (req) => Promise.resolve(app.fetch(req, bindings, ctx)), render),
  );
  const res = await doc.request(path, {}, bindings, ctx);
  const html = await res.text();
  await waitOnExecutionContext(ctx);
  return { res, html };
}

describe('a failed render of the first screen', () => {
  it('serves the document with an empty root and its reads when the render rejects', async () => {
    const a = await createShop({ setupGuidePending: false });
    const { res, html } = await documentWith(() => Promise.reject(new Error('render exploded')), `/main?authToken=${a.token}`);
    expect(res.status).toBe(200);
    expect(html).toContain('<div id="root"></div>');
    expect(html).toContain(`id="${FIRST_READS_ID}"`);
  });

  it('turns an exception inside the admin’s render into nothing rendered, and logs it', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    // Reads no real Worker writes: a settings answer that throws when the render reads it.
    const reads = {
      '/api/v1/getSettingInfo': {
        code: '200',
        get data(): never {
          throw new Error('unreadable settings');
        },
      },
    };
    const screen = await renderDocumentScreen(
      new URL('https://app.test/main?authToken=' + 'a'.repeat(40)),
      { via: 'authToken', path: '/main', reads },
      new Headers(),
    );
    expect(screen).toBeNull();
    expect(logged.mock.calls.some((args) => String(args[0]).includes('document render failed'))).toBe(true);
    logged.mockRestore();
  });
});
