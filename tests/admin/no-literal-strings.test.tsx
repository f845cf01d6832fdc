import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { i18next } from '../../admin/src/i18n';
import { defaultImageSettings } from '../../shared/image-settings';
import { LANGUAGES } from '../../shared/languages';
import { mockApi, renderApp, settingInfo } from './helpers/render-app';

// Every visible string must come from the catalogues. The English catalogue is swapped for a
// pseudo-locale that wraps each value in ⟦…⟧; any text node left with letters outside the brackets was
// written into a component as a literal. Numbers, punctuation, and the language names of the language
// selector (shown in their own language on purpose) are data, not copy.
// Polaris' own strings (Skip to content, badge tones, "More views") come from its catalogue, loaded per
// language by PolarisProvider; they are wrapped the same way.
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

const OPEN = '⟦';
const CLOSE = '⟧';
let original: Record<string, unknown>;

function wrap(value: unknown): unknown {
  if (typeof value === 'string') return `${OPEN}${value}${CLOSE}`;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, wrap(v)]));
  return value;
}

beforeAll(() => {
  original = i18next.getResourceBundle('en', 'translation') as Record<string, unknown>;
  i18next.addResourceBundle('en', 'translation', wrap(original), true, true);
});
afterAll(() => {
  i18next.addResourceBundle('en', 'translation', original, true, true);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const DATA_ONLY = /^[\s\d.,:;%$\-–—+−×/★·()|]*$/;
/** formatSize output: units are the same in every language (and allowed as such by the catalogue test). */
const SIZE = /^\d+\.\d{2} (KB|MB|GB)$/;
const LANGUAGE_NAMES = new Set<string>(LANGUAGES.map((l) => l.name));

function literalTexts(): string[] {
  const found: string[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest('script, style, option')) continue;
    const text = node.textContent ?? '';
    // Polaris nests our strings in its own ("⟦⟦Pricing⟧. This page is ready⟧"): peel innermost first.
    let rest = text;
    for (let prev = ''; prev !== rest;) [prev, rest] = [rest, rest.replace(/⟦[^⟦⟧]*⟧/g, '')];
    if (DATA_ONLY.test(rest) || LANGUAGE_NAMES.has(rest.trim()) || SIZE.test(rest.trim())) continue;
    found.push(text.trim());
  }
  return found;
}

const api = () =>
  mockApi({
    '/api/v2/home/getPageSpeedScore': { ack: 1, status: 1, score: { pc: 62, mb: 38 } },
    '/api/v2/home/checkThemeAppExtension': { ack: 1, data: { url: '', status: 0 } },
    '/api/v2/setting/getAccount': { ack: 1, data: { is_over_quota: 0, is_capped: 1 } },
    '/api/v2/image-opt/getSettings': { ack: 1, data: { ...defaultImageSettings(), is_default: 0 } },
    '/api/v1/getPricingPlans': {
      code: '200',
      data: {
        plans: [
          { name: 'Free', impressions: 150, price: 0 },
          { name: 'Premium', impressions: 1000, price: 4.99 },
        ],
        level: 0,
        canDiscount: true,
        rebate_info: { expired_time: Date.now() + 3600_000, rate: 20, discount_period: 3 },
        img_usage_use: 80,
        img_usage_all: 150,
        impressions_use: 10,
        impressions_all: 100,
        precent: 53,
        total: { un_opt_num: 3, total_saved_size: 123456, total_opt_num: 80 },
      },
    },
    '/api/v1/getImageSyncStatus': { code: '200', data: { imageSync: false, imageCount: 0 } },
    '/api/v1/getRecommendedApps': { code: '200', data: {} },
    '/api/v1/getThisUserEmail': { code: '200', data: { email: '', name: '' } },
    '/shopify/app': { code: 500 },
  });

describe('no literal strings in rendered screens', () => {
  it.each(['/main', '/pricing', '/recommended-apps', '/cookieError', '/error', '/404', '/privacy-policy', '/auth/install'])(
    '%s',
    async (path) => {
      api();
      vi.spyOn(console, 'error').mockImplementation(() => undefined);
      renderApp(path, { info: settingInfo({ review_tips: 1 }) });
      await waitFor(() => expect(document.body.textContent).toContain(OPEN));
      await new Promise((r) => setTimeout(r, 200)); // let the data calls answer
      expect(literalTexts()).toEqual([]);
    },
  );

  it('/setting, both sections, with every option shown', async () => {
    api();
    renderApp('/setting', { info: settingInfo({ new_guide_status: 0 }) }); // the guide is done: /setting shows
    await screen.findByRole('switch');
    expect(literalTexts()).toEqual([]);
    fireEvent.click(screen.getAllByText(/Image Optimization Settings/)[0]!);
    fireEvent.click(await screen.findByLabelText(/⟦Custom⟧/));
    fireEvent.click(screen.getByLabelText(/⟦Convert PNG to JPG⟧/));
    fireEvent.click(screen.getByLabelText(/⟦Add a watermark⟧/));
    fireEvent.click(screen.getByLabelText(/⟦Write alt text from templates⟧/));
    fireEvent.click(screen.getByLabelText(/⟦Rename image files from templates⟧/));
    fireEvent.click(screen.getByLabelText(/⟦Manual⟧/));
    expect(literalTexts()).toEqual([]);
  });

  it('catches a literal', () => {
    document.body.innerHTML = '<div><span>⟦Saved⟧</span><b>12 / 40</b><p>Upgrade now</p></div>';
    expect(literalTexts()).toEqual(['Upgrade now']);
    document.body.innerHTML = '';
  });

  it('/guidance, every step', async () => {
    api();
    renderApp('/guidance');
    fireEvent.click(await screen.findByRole('button', { name: /Let's start now/ }));
    await screen.findByRole('button', { name: /⟦Next⟧/ }); // the steps' code arrives
    for (let step = 2; step <= 4; step++) {
      expect(literalTexts()).toEqual([]);
      fireEvent.click(screen.getByRole('button', { name: /⟦Next⟧/ }));
    }
    expect(literalTexts()).toEqual([]);
  });
});
