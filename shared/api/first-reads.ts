// The reads a screen of the admin makes as it opens (issue 26: Largest Contentful Paint). The Worker
// answers them inside the admin's HTML document (worker/document-reads.ts), so the first screen paints
// once its code has run instead of one or two round trips later; the admin takes each answer once, for
// the first GET of exactly that URL (admin/src/api/first-reads.ts). A URL listed here that the admin no
// longer asks for costs the Worker one read and nothing else: the admin asks the server as before.

/** The id of the document's `<script type="application/json">` that carries the answers. */
export const FIRST_READS_ID = 'first-reads';

/** Which credential of the document's URL the reads used; the admin uses the answers only with the same one. */
export type ReadsVia = 'id_token' | 'authToken' | null;

/** The element's JSON: the answers by URL, for the screen `path`. */
export type FirstReads = { via: ReadsVia; path: string; reads: Record<string, unknown> };

/** The session's first read (language, plan, guide state): every screen that reads the session. */
export const SETTING_INFO = '/api/v1/getSettingInfo';
/** The deployed Worker's runtime configuration: public, read by every screen (footer, contact, video). */
export const APP_CONFIG = '/app-config';

/** The first page of the history the image page opens on (tab 0: products, 10 rows, no search). */
const FIRST_HISTORY_PAGE = '/api/v2/image-opt/getImageOptDataPage?page=1&pageSize=10&data_type=1&page_type=0';
const IMAGE_PAGE = ['/api/v2/image-opt/getImgOptTotal', FIRST_HISTORY_PAGE, '/api/v2/image-opt/getOptSchedule'];

/** Per screen (a client route of admin/src/router.tsx), the shop's reads besides SETTING_INFO. */
const SCREEN_READS: Record<string, readonly string[]> = {
  '/main': ['/api/v2/home/checkThemeAppExtension', '/api/v1/getPricingPlans'],
  '/image_optimisation': IMAGE_PAGE,
  '/pricing': ['/api/v1/getPricingPlans', '/api/v1/getImageSyncStatus'],
  '/setting': ['/api/v2/setting/getAccount', '/api/v2/setting/getAdminTokens', '/api/v2/image-opt/getSettings'],
  '/recommended-apps': ['/api/v1/getRecommendedApps'],
  '/guidance': [],
  '/image_optimisation_details': [],
};

/**
 * Where a shop that has not finished the set-up wizard is sent on its session's first visit
 * (screens/main.tsx opens the wizard, screens/setting.tsx the image page): that screen's reads come too.
 */
export const GUIDE_PENDING_TARGET: Record<string, string> = { '/main': '/guidance', '/setting': '/image_optimisation' };

/**
 * The paths the wizard's rule always leaves (screens/setting.tsx): the document carries only the target's
 * reads. /main opens the wizard only on the tab session's first launch, which the Worker cannot know:
 * both screens' reads come.
 */
export const GUIDE_PENDING_LEAVES = ['/setting'];

/**
 * The details screen's read when its address names the item (`/image_optimisation_details?item=<id>`, the
 * id of a history row): the item and its first page of images, exactly as the screen asks for it
 * (admin/src/image-opt/details/use-item-images.ts: page 1, 10 a page), or null when the address names no item.
 */
export function itemImagesRead(search: URLSearchParams): string | null {
  const raw = (search.get('item') ?? '').trim();
  const id = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  return `/api/v2/image-opt/getProductImagesData?prod_id=${id}&page=1&pageSize=10`;
}

/** Public screens that read the session for the merchant's language when there is one (shell/public-paths.ts). */
const SESSION_LANGUAGE_PATHS = ['/404', '/privacy-policy'];

/** A path as the router matches it: a trailing slash is ignored. */
export const screenPath = (pathname: string) => pathname.replace(/(.)\/+$/, '$1');

/**
 * The shop's reads for a screen: SETTING_INFO then the screen's own, or none on a screen that reads no
 * session (the launch, install, error pages). With `guidePending`, the reads of the screen the wizard
 * rule sends the merchant to follow. `search`: the document's query (the details screen's item).
 */
export function shopReadsFor(pathname: string, guidePending = false, search = new URLSearchParams()): string[] {
  const path = screenPath(pathname);
  const item = path === '/image_optimisation_details' ? itemImagesRead(search) : null;
  const own = item ? [item] : SCREEN_READS[path];
  if (!own) return SESSION_LANGUAGE_PATHS.includes(path) ? [SETTING_INFO] : [];
  const target = guidePending ? GUIDE_PENDING_TARGET[path] : undefined;
  const targetReads = target ? (SCREEN_READS[target] ?? []) : [];
  if (target && GUIDE_PENDING_LEAVES.includes(path)) return [SETTING_INFO, ...targetReads];
  return [SETTING_INFO, ...own, ...targetReads];
}
