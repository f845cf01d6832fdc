import { Hono } from 'hono';
import { z } from 'zod';
import recommendationsConfig from '../../config/recommendations.json';
import { v1 } from '../lib/envelope';
import { toBase64Url } from '../lib/crypto';
import { isLanguageCode } from '../../shared/languages';
import type { AppEnv } from '../types';
import type { Recommendations } from '../../shared/api/account';

// GET /api/v1/getRecommendedApps: the recommendations page's two tabs, from config/recommendations.json
// (configuration, not hard-coded brands). The file is validated when the Worker loads, so
// a broken edit fails every test instead of showing an empty page.
export const recommendationsRoutes = new Hono<AppEnv>();

/** A merchant-facing text: one string, or one per interface language (en required as the fallback). */
const localised = z.union([
  z.string().min(1),
  z
    .record(z.string(), z.string().min(1))
    .refine((m) => typeof m.en === 'string', 'a per-language text needs en')
    .refine((m) => Object.keys(m).every((k) => isLanguageCode(k)), 'unknown language code'),
]);
export type Localised = z.infer<typeof localised>;

/** The text in the shop's language, English when the configuration has none for it. */
export function textFor(text: Localised, language: string): string {
  if (typeof text === 'string') return text;
  return text[language] ?? text.en ?? '';
}

const configSchema = z.object({
  iframeUrl: z
    .string()
    .url()
    .refine(
      (u) => u.includes('{shop}') && u.includes('{appId}') && u.includes('{user}'),
      'iframeUrl needs {shop}, {appId} and {user}',
    ),
  iframeTitle: localised,
  partnerTitle: localised,
  apps: z
    .array(
      z.object({
        name: z.string().min(1),
        description: localised,
        rating: z.number().min(0).max(5),
        reviewCount: z.number().int().min(0),
        free: z.boolean(),
        listingUrl: z.string().url(),
      }),
    )
    .min(1),
});

export const recommendations = configSchema.parse(recommendationsConfig);

/** The iframe URL for a shop: its domain, the app id and base64url of {"email": ...}. */
export function recommendationsIframeUrl(template: string, shop: { domain: string; email: string }, appId: string): string {
  const user = toBase64Url(new TextEncoder().encode(JSON.stringify({ email: shop.email })));
  return template
    .replace('{shop}', encodeURIComponent(shop.domain))
    .replace('{appId}', encodeURIComponent(appId))
    .replace('{user}', user);
}

recommendationsRoutes.get('/api/v1/getRecommendedApps', (c) => {
  const shop = c.get('shop');
  // Tab titles and app descriptions in the merchant's interface language (issue 15).
  const lang = shop.language;
  return v1<Recommendations>(c, {
    iframe: {
      title: textFor(recommendations.iframeTitle, lang),
      url: recommendationsIframeUrl(recommendations.iframeUrl, shop, c.env.SHOPIFY_API_KEY),
    },
    partner: { title: textFor(recommendations.partnerTitle, lang) },
    apps: recommendations.apps.map((a) => ({
      name: a.name,
      description: textFor(a.description, lang),
      rating: a.rating,
      review_count: a.reviewCount,
      free: a.free,
      url: a.listingUrl,
    })),
  });
});
