import {
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
  redirect,
  type RouteComponent,
} from '@tanstack/react-router';
import { QueryProvider } from './api/query';
import { AppShell } from './shell/app-shell';
import { isLaunchQuery } from './screens/launch-query';

// The route table of the admin. /, /admin, /admin/index and /admin/preload (the
// product home named by the error page) go to /main; any unknown path goes to /404.
// The data layer's query client lives with the app root: one per mounted router.
// Every screen is its own chunk, loaded when the router enters it (issue 26: the first screen loads only
// its own code); the shell, Polaris and the data layer are shared by all and load first.
const rootRoute = createRootRoute({
  component: () => (
    <QueryProvider>
      <AppShell />
    </QueryProvider>
  ),
});

/** Catch-all: any path no other route claims. */
const unknownRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '$',
  beforeLoad: () => {
    throw redirect({ to: '/404', replace: true });
  },
});

const toMain = <const P extends string>(path: P) =>
  createRoute({
    getParentRoute: () => rootRoute,
    path,
    beforeLoad: ({ location }) => {
      throw redirect({ to: '/main', search: location.search as never, replace: true });
    },
  });

/** A screen's component, imported (its chunk fetched) the first time the router renders or preloads it. */
const screen = (load: () => Promise<Record<string, unknown>>, name: string): RouteComponent =>
  lazyRouteComponent(load as () => Promise<Record<string, RouteComponent>>, name);

/** `/` is application_url: with Shopify's launch query it is the launch screen, otherwise the home. */
const launchRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: ({ location }) => {
    if (isLaunchQuery(location.searchStr)) return;
    throw redirect({ to: '/main', search: location.search as never, replace: true });
  },
  component: screen(() => import('./screens/auth-install'), 'AuthInstallScreen'),
});

/**
 * "/admin/on-page-seo/index is referenced; the screen behind it is not shown" (image-optimisation.md
 * section 2): on-page SEO is what the partner apps do, so the reference opens the recommendations on that
 * tab (the history area links it).
 */
const onPageSeoRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/admin/on-page-seo/index',
  beforeLoad: () => {
    throw redirect({ to: '/recommended-apps', search: { tab: 'partner-apps' } as never, replace: true });
  },
});

const page = <const P extends string>(path: P, component: RouteComponent) =>
  createRoute({ getParentRoute: () => rootRoute, path, component });

export type DetailsState = { prodId?: number; title?: string };

/** The details screen's address names its history item: `?item=<id>` (a reload, a bookmark, a shared link). */
export type DetailsSearch = { item?: number };

/**
 * `item` when it is a history row's id (a positive whole number); anything else names no item. Always said,
 * undefined included: the router lays a route's search over the address's own, which would keep `item=abc`.
 */
export function detailsSearch(search: Record<string, unknown>): DetailsSearch {
  const raw = search.item;
  const id = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  return { item: Number.isSafeInteger(id) && id > 0 ? id : undefined };
}

/**
 * /image_optimisation_details?item=<id>. With an item named, the router waits for the images table's code
 * before the first render, in the Worker (render-first-screen.tsx) as in the browser (main.tsx): the table
 * the Worker rendered from the document's read is hydrated as it is, not replaced by the loading table.
 */
const detailsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/image_optimisation_details',
  validateSearch: detailsSearch,
  loaderDeps: ({ search }) => ({ item: search.item }),
  loader: ({ deps }) =>
    deps.item === undefined ? undefined : import('./screens/image-optimisation-details').then((m) => m.tableReady()),
  component: screen(() => import('./screens/image-optimisation-details'), 'ImageOptimisationDetailsScreen'),
});

const routeTree = rootRoute.addChildren([
  launchRoute,
  toMain('/admin'),
  toMain('/admin/index'),
  toMain('/admin/preload'),
  onPageSeoRoute,
  page(
    '/main',
    screen(() => import('./screens/main'), 'MainScreen'),
  ),
  page(
    '/image_optimisation',
    screen(() => import('./screens/image-optimisation'), 'ImageOptimisationScreen'),
  ),
  detailsRoute,
  page(
    '/pricing',
    screen(() => import('./screens/pricing'), 'PricingScreen'),
  ),
  page(
    '/setting',
    screen(() => import('./screens/setting'), 'SettingScreen'),
  ),
  page(
    '/guidance',
    screen(() => import('./screens/guidance'), 'GuidanceScreen'),
  ),
  page(
    '/recommended-apps',
    screen(() => import('./screens/recommended-apps'), 'RecommendedAppsScreen'),
  ),
  page(
    '/auth/install',
    screen(() => import('./screens/auth-install'), 'AuthInstallScreen'),
  ),
  page(
    '/cookieError',
    screen(() => import('./screens/cookie-error'), 'CookieErrorScreen'),
  ),
  page(
    '/privacy-policy',
    screen(() => import('./screens/privacy-policy'), 'PrivacyPolicyScreen'),
  ),
  page(
    '/error',
    screen(() => import('./screens/error'), 'ErrorScreen'),
  ),
  page(
    '/404',
    screen(() => import('./screens/not-found'), 'NotFoundScreen'),
  ),
  unknownRoute,
]);

export function createAppRouter(opts: { history?: Parameters<typeof createRouter>[0]['history'] } = {}) {
  return createRouter({ routeTree, history: opts.history, defaultPreload: false });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
  interface HistoryState {
    prodId?: number;
    title?: string;
  }
}
