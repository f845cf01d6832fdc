import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FIRST_READS_ID, type FirstReads } from '../../shared/api/first-reads';
import { startEarlySettingInfo } from '../../admin/src/api/early';
import { getSettingInfo } from '../../admin/src/api/calls';
import { dropFirstReads, FIRST_READS_FOR_MS, resetFirstReads, takeFirstRead } from '../../admin/src/api/first-reads';
import { loadAppConfig, resetAppConfig } from '../../admin/src/hooks/use-app-config';
import { embedWithAppBridge, leaveAdmin } from './helpers/app-bridge';
import { mockApi, renderApp, settingInfo, TOKEN } from './helpers/render-app';

// Issue 26 (LCP): the answers the Worker wrote into the document (worker/document-reads.ts) serve the
// first GET of each URL, once, and only for the session the Worker read them with.

const INFO = { code: '200', msg: 'success', data: settingInfo({ shopname: 'From the document', new_guide_status: 0 }) };

/** Puts the Worker's element into the document and loads api/first-reads as the page would (its URL read at load). */
async function loadWith(answers: FirstReads | string, search: string) {
  document.getElementById(FIRST_READS_ID)?.remove();
  const el = document.createElement('script');
  el.type = 'application/json';
  el.id = FIRST_READS_ID;
  el.textContent = typeof answers === 'string' ? answers : JSON.stringify(answers);
  document.body.appendChild(el);
  history.replaceState(null, '', `/main${search}`);
  resetFirstReads();
  return { takeFirstRead, FIRST_READS_FOR_MS };
}

const standalone = (authToken: string | null) => ({ embedded: false, authToken, shop: null });
const doc = (via: FirstReads['via'], reads: Record<string, unknown>): FirstReads => ({ via, path: '/main', reads });

/** A session token's shape with `dest` naming the shop (the admin only compares it, never trusts it). */
const idTokenFor = (shop: string) => `h.${btoa(JSON.stringify({ dest: `https://${shop}` })).replace(/=+$/, '')}.s`;

afterEach(() => {
  document.getElementById(FIRST_READS_ID)?.remove();
  resetFirstReads();
  resetAppConfig();
  history.replaceState(null, '', '/');
  sessionStorage.clear();
  leaveAdmin();
  vi.unstubAllGlobals();
});

describe('takeFirstRead', () => {
  it('an answer dropped (a reload of the settings after a job, a move to another screen) is never given', async () => {
    const PAGE = '/api/v1/getImageOptPage';
    const m = await loadWith(doc('authToken', { '/api/v1/getSettingInfo': INFO, [PAGE]: INFO }), `?authToken=${TOKEN}`);
    dropFirstReads('/api/v1/getSettingInfo');
    expect(m.takeFirstRead('/api/v1/getSettingInfo', standalone(TOKEN), 0)).toBeUndefined();
    expect(m.takeFirstRead(PAGE, standalone(TOKEN), 0)).toEqual(INFO);
    const again = await loadWith(doc('authToken', { [PAGE]: INFO }), `?authToken=${TOKEN}`);
    dropFirstReads();
    expect(again.takeFirstRead(PAGE, standalone(TOKEN), 0)).toBeUndefined();
  });

  it('gives each answer once, for exactly its URL, and removes the element', async () => {
    const m = await loadWith(doc('authToken', { '/api/v1/getSettingInfo': INFO }), `?authToken=${TOKEN}`);
    expect(m.takeFirstRead('/api/v1/getSettingInfo?x=1', standalone(TOKEN), 0)).toBeUndefined();
    expect(m.takeFirstRead('/api/v1/getSettingInfo', standalone(TOKEN), 0)).toEqual(INFO);
    expect(m.takeFirstRead('/api/v1/getSettingInfo', standalone(TOKEN), 0)).toBeUndefined();
    expect(document.getElementById(FIRST_READS_ID)).toBeNull();
  });

  it('only for the admin token of the document’s URL: another token (the merchant kept their session) gets nothing', async () => {
    const m = await loadWith(doc('authToken', { '/api/v1/getSettingInfo': INFO }), `?authToken=${TOKEN}`);
    expect(m.takeFirstRead('/api/v1/getSettingInfo', standalone('b'.repeat(40)), 0)).toBeUndefined();
    expect(
      m.takeFirstRead('/api/v1/getSettingInfo', { embedded: true, authToken: null, shop: 'x.myshopify.com' }, 0),
    ).toBeUndefined();
    expect(m.takeFirstRead('/api/v1/getSettingInfo', standalone(TOKEN), 0)).toEqual(INFO);
  });

  it('embedded: only inside the admin of the shop the id_token names', async () => {
    const search = `?shop=a.myshopify.com&id_token=${idTokenFor('a.myshopify.com')}`;
    const m = await loadWith(doc('id_token', { '/api/v1/getSettingInfo': INFO }), search);
    expect(
      m.takeFirstRead('/api/v1/getSettingInfo', { embedded: true, authToken: null, shop: 'b.myshopify.com' }, 0),
    ).toBeUndefined();
    expect(m.takeFirstRead('/api/v1/getSettingInfo', standalone(TOKEN), 0)).toBeUndefined();
    expect(m.takeFirstRead('/api/v1/getSettingInfo', { embedded: true, authToken: null, shop: 'a.myshopify.com' }, 0)).toEqual(
      INFO,
    );
  });

  it('a public answer (no credential) serves any page; shop answers never without a credential', async () => {
    const m = await loadWith(doc(null, { '/app-config': { merchant_count: 5 }, '/api/v1/getSettingInfo': INFO }), '');
    expect(m.takeFirstRead('/api/v1/getSettingInfo', standalone(null), 0)).toBeUndefined();
    expect(m.takeFirstRead('/app-config', null, 0)).toEqual({ merchant_count: 5 });
  });

  it(`drops what nobody took in the page's first ${30} seconds`, async () => {
    const m = await loadWith(doc('authToken', { '/api/v1/getSettingInfo': INFO }), `?authToken=${TOKEN}`);
    expect(m.takeFirstRead('/api/v1/getSettingInfo', standalone(TOKEN), m.FIRST_READS_FOR_MS + 1)).toBeUndefined();
    expect(m.takeFirstRead('/api/v1/getSettingInfo', standalone(TOKEN), 0)).toBeUndefined();
  });

  it('ignores an element that is not the Worker’s JSON', async () => {
    const m = await loadWith('{"via":"authToken","reads":', `?authToken=${TOKEN}`);
    expect(m.takeFirstRead('/api/v1/getSettingInfo', standalone(TOKEN), 0)).toBeUndefined();
  });
});

describe('the first screen with the document’s answers', () => {
  beforeEach(() => sessionStorage.clear());

  it('the pricing screen paints from the document: no request for what it carries', async () => {
    const api = mockApi({ '/api/v1/getSettingInfo': INFO, '/api/v1/getImageSyncStatus': { code: '200', data: {} } });
    await loadWith(
      doc('authToken', { '/api/v1/getSettingInfo': INFO, '/app-config': { merchant_count: null } }),
      `?authToken=${TOKEN}`,
    );
    expect(await getSettingInfo()).toEqual(INFO);
    expect(api.callsTo('/api/v1/getSettingInfo')).toHaveLength(0);
    // The second read goes to the server.
    await getSettingInfo();
    expect(api.callsTo('/api/v1/getSettingInfo')).toHaveLength(1);
    await loadAppConfig();
    expect(api.callsTo('/app-config')).toHaveLength(0);
  });

  it('embedded through App Bridge, with the id_token of the same shop: the document answers', async () => {
    const api = mockApi({ '/api/v1/getSettingInfo': INFO });
    embedWithAppBridge({ idToken: async () => 'session-token', config: { shop: 'a.myshopify.com', apiKey: 'k' } });
    await loadWith(
      doc('id_token', { '/api/v1/getSettingInfo': INFO }),
      `?shop=a.myshopify.com&id_token=${idTokenFor('a.myshopify.com')}`,
    );
    expect(await getSettingInfo()).toEqual(INFO);
    expect(api.callsTo('/api/v1/getSettingInfo')).toHaveLength(0);
  });

  it('the dashboard takes the session’s first read as this visit’s: one settingInfo read, not two', async () => {
    const api = mockApi({
      '/api/v1/getSettingInfo': INFO,
      '/api/v1/getPricingPlans': { code: '200', data: { plans: [], level: 0, canDiscount: false } },
      '/api/v2/home/checkThemeAppExtension': { ack: 1, data: { status: 1, url: '' } },
      '/api/v2/home/getPageSpeedScore': { ack: 1, status: 0 },
      '/api/v2/home/getPageSpeedHistory': { ack: 1, data: [] },
    });
    // As admin/src/main.tsx does: the session's first read starts before the first render.
    sessionStorage.setItem('authToken', TOKEN);
    startEarlySettingInfo();
    await waitFor(() => expect(api.callsTo('/api/v1/getSettingInfo')).toHaveLength(1));
    renderApp('/main', { info: null });
    await waitFor(() => expect(api.callsTo('/api/v2/home/checkThemeAppExtension').length).toBeGreaterThan(0));
    await waitFor(() => expect(screen.queryByRole('heading', { level: 1 })).not.toBeNull());
    expect(api.callsTo('/api/v1/getSettingInfo')).toHaveLength(1);
  });
});
