// The store emulator's storefront renders the app embed only while it is switched on in the main
// theme (as Shopify does). With it on, hovering a link prerenders its page; switched off, nothing is
// speculated beyond Shopify's own pointer-down rules.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREFETCH_SCRIPT } from '../../../storefront-script/build/script-module';
import { APP_HANDLE, DEFAULT_SCOPES, type RunningEmulator, startEmulator } from '../../../emulator/server';
import { DEV_STORE_DOMAIN } from '../../../emulator/store/seed';
import { CdpBrowser } from './cdp-tab';

let appServer: Server;
let emulator: RunningEmulator;
let browser: CdpBrowser;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  // Stands in for the Worker's /storefront/prefetch.js (worker/routes/storefront.ts serves the same text).
  appServer = createServer((req, res) => {
    if (req.url === '/storefront/prefetch.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Access-Control-Allow-Origin': '*' });
      res.end(PREFETCH_SCRIPT.source);
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => appServer.listen(0, '127.0.0.1', resolve));
  const appUrl = `http://127.0.0.1:${(appServer.address() as AddressInfo).port}`;
  emulator = await startEmulator({
    port: 0,
    app: {
      apiKey: 'browser-test-key',
      apiSecret: 'browser-test-secret-0123456789abcdef',
      appUrl,
      handle: APP_HANDLE,
      scopes: DEFAULT_SCOPES.split(','),
    },
    seedDevStore: true,
    defaults: { webhookUrl: '', storefrontTtfbMs: [200, 300] },
  });
  browser = await CdpBrowser.launch();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await emulator?.close();
  appServer?.closeAllConnections();
  await new Promise((resolve) => appServer?.close(resolve));
});

async function setEmbed(enabled: boolean | null) {
  const res = await fetch(`${emulator.origin}/__emulator/shops/${DEV_STORE_DOMAIN}/theme/embed`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ enabled }),
  });
  expect(res.ok).toBe(true);
}

/**
 * Opens the dev store's home page once it has loaded (module scripts run before the load event), hovers
 * the Catalog link and returns what was prerendered: waiting for the prerender when one is expected
 * (up to 15 s on a loaded machine), or 1 s when none is.
 */
async function hoverCatalogLink(expectPrerender: boolean) {
  const tab = await browser.newTab();
  const prerendered: string[] = [];
  const off = browser.on('Preload.prerenderStatusUpdated', (params) => {
    const key = params.key as { url: string };
    if (params.status === 'Ready') prerendered.push(new URL(key.url).pathname);
  });
  try {
    await tab.send('Preload.enable');
    await tab.goto(`http://dev-store.localhost:${emulator.port}/`);
    for (let i = 0; i < 300 && (await tab.evaluate<string>('document.readyState')) !== 'complete'; i++) await sleep(50);
    const embedTags = await tab.evaluate<number>(`document.querySelectorAll('script[data-app-embed]').length`);
    // A header link: product cards move while their lazy images load.
    const href = '/collections/all';
    const { x, y } = await tab.centreOf(`header a[href="${href}"]`);
    await tab.mouse('mouseMoved', x, y);
    if (expectPrerender) for (let i = 0; i < 300 && !prerendered.includes(href); i++) await sleep(50);
    else await sleep(1000);
    return { embedTags, href, prerendered };
  } finally {
    off();
    await tab.close();
  }
}

describe('app embed switch on the emulator storefront', () => {
  it('embed on: the script is on the page and a hover prerenders the hovered page', async () => {
    await setEmbed(true);
    const { embedTags, href, prerendered } = await hoverCatalogLink(true);
    expect(embedTags).toBe(1);
    expect(prerendered).toContain(href);
  });

  it('embed switched off (or never added): no script, nothing prerendered on hover', async () => {
    for (const state of [false, null]) {
      await setEmbed(state);
      const { embedTags, prerendered } = await hoverCatalogLink(false);
      expect(embedTags).toBe(0);
      expect(prerendered).toEqual([]);
    }
  });
});
