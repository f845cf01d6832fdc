import type { Recommendations as RecommendationsAnswer } from '../../../shared/api/account';

// Recommendations configuration (both tabs come from configuration) as
// answered by GET /api/v1/getRecommendedApps (shared/api/account.ts): the iframe tab, the partner tab's
// title, and the partner apps.
export type PartnerApp = {
  name: string;
  description: string;
  rating: number;
  reviews: number;
  free: boolean;
  url: string;
  icon?: string;
};
export type Recommendations = { iframe: { title: string; url: string } | null; partner: { title: string; apps: PartnerApp[] } };

/** The page's view of the answer; nothing configured (or no answer) gives empty tabs. */
export function readRecommendations(data: Partial<RecommendationsAnswer> | null | undefined): Recommendations {
  const iframeUrl = data?.iframe?.url ?? '';
  return {
    iframe: iframeUrl ? { title: data?.iframe?.title ?? '', url: iframeUrl } : null,
    partner: {
      title: data?.partner?.title ?? '',
      apps: (data?.apps ?? [])
        .map((a) => ({
          name: a.name,
          description: a.description,
          rating: Number(a.rating) || 0,
          reviews: Number(a.review_count) || 0,
          free: a.free === true,
          url: a.url,
        }))
        .filter((a) => a.name && a.url),
    },
  };
}

/** base64url of a UTF-8 string (the iframe gets {email} this way). */
export function base64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The all-in-one apps page, loaded with the shop domain, our app id and base64url({email}); a configured
 * URL that already carries them (the server may build it) is used as it is. */
export function iframeSrc(base: string, shop: string, appId: string, email: string): string {
  const url = new URL(base, 'https://invalid.example');
  if (url.searchParams.has('shop')) return url.toString();
  url.searchParams.set('shop', shop);
  url.searchParams.set('app_id', appId);
  url.searchParams.set('data', base64Url(JSON.stringify({ email })));
  return url.toString();
}
