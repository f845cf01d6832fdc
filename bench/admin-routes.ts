// The screens bench:admin opens and the targets it checks them against (issue 26); also read by tests.

/** Every screen of the admin (admin/src/router.tsx), the redirects and the catch-all left out. */
export const ADMIN_ROUTES = [
  '/main',
  '/image_optimisation',
  '/image_optimisation_details',
  '/pricing',
  '/setting',
  '/guidance',
  '/recommended-apps',
  '/privacy-policy',
  '/cookieError',
  '/error',
  '/404',
] as const;

export const TARGETS = {
  desktop: { lcpMs: 1000, cls: 0.05, tbtMs: Number.POSITIVE_INFINITY },
  mobile: { lcpMs: 2500, cls: 0.1, tbtMs: 200 },
  jsKb: 150,
} as const;
