// Recommendations configuration (decisions.md "Other gaps": both tabs come from configuration) as
// answered by GET /api/v1/getRecommendedApps. Expected data:
//   { iframe: { title, url }, partner: { title, apps: [{ name, description, rating, reviews, free, url, icon }] } }
// The reader also accepts flat keys (iframe_url, apps) so a simpler answer still renders.
export type PartnerApp = { name: string; description: string; rating: number; reviews: number; free: boolean; url: string; icon?: string };
export type Recommendations = { iframe: { title: string; url: string } | null; partner: { title: string; apps: PartnerApp[] } };

const str = (v: unknown) => (typeof v === 'string' ? v : '');

export function readRecommendations(data: unknown): Recommendations {
  const d = (data && typeof data === 'object' ? data : {}) as Record<string, unknown>;
  const iframe = (d.iframe ?? {}) as Record<string, unknown>;
  const partner = (d.partner ?? {}) as Record<string, unknown>;
  const iframeUrl = str(iframe.url) || str(d.iframe_url);
  const rawApps = (Array.isArray(partner.apps) ? partner.apps : Array.isArray(d.apps) ? d.apps : []) as Record<string, unknown>[];
  return {
    iframe: iframeUrl ? { title: str(iframe.title), url: iframeUrl } : null,
    partner: {
      title: str(partner.title),
      apps: rawApps
        .map((a) => ({
          name: str(a.name),
          description: str(a.description),
          rating: Number(a.rating) || 0,
          reviews: Number(a.reviews ?? a.review_count) || 0,
          free: a.free === true || a.free === 1,
          url: str(a.url),
          icon: str(a.icon) || undefined,
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
