import { createRootRoute, createRoute, createRouter, redirect } from '@tanstack/react-router';
import { QueryProvider } from './api/query';
import { AppShell } from './shell/app-shell';
import { AuthInstallScreen, isLaunchQuery } from './screens/auth-install';
import { CookieErrorScreen } from './screens/cookie-error';
import { ErrorScreen } from './screens/error';
import { GuidanceScreen } from './screens/guidance';
import { ImageOptimisationScreen } from './screens/image-optimisation';
import { ImageOptimisationDetailsScreen } from './screens/image-optimisation-details';
import { MainScreen } from './screens/main';
import { NotFoundScreen } from './screens/not-found';
import { PricingScreen } from './screens/pricing';
import { PrivacyPolicyScreen } from './screens/privacy-policy';
import { RecommendedAppsScreen } from './screens/recommended-apps';
import { SettingScreen } from './screens/setting';

// The route table of the admin. /, /admin, /admin/index and /admin/preload (the
// product home named by the error page) go to /main; any unknown path goes to /404.
// The data layer's query client lives with the app root: one per mounted router.
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

/** `/` is application_url: with Shopify's launch query it is the launch screen, otherwise the home. */
const launchRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: ({ location }) => {
    if (isLaunchQuery(location.searchStr)) return;
    throw redirect({ to: '/main', search: location.search as never, replace: true });
  },
  component: AuthInstallScreen,
});

const page = <const P extends string>(path: P, component: () => JSX.Element) =>
  createRoute({ getParentRoute: () => rootRoute, path, component });

export type DetailsState = { prodId?: number; title?: string };

const routeTree = rootRoute.addChildren([
  launchRoute,
  toMain('/admin'),
  toMain('/admin/index'),
  toMain('/admin/preload'),
  page('/main', MainScreen),
  page('/image_optimisation', ImageOptimisationScreen),
  page('/image_optimisation_details', ImageOptimisationDetailsScreen),
  page('/pricing', PricingScreen),
  page('/setting', SettingScreen),
  page('/guidance', GuidanceScreen),
  page('/recommended-apps', RecommendedAppsScreen),
  page('/auth/install', AuthInstallScreen),
  page('/cookieError', CookieErrorScreen),
  page('/privacy-policy', PrivacyPolicyScreen),
  page('/error', ErrorScreen),
  page('/404', NotFoundScreen),
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
