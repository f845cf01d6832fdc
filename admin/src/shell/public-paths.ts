/**
 * Routes that need no shop credentials (public pages and the install landing). Kept apart from the route
 * table so the shell can read it without importing the router that mounts the shell.
 */
export const PUBLIC_PATHS = ['/', '/auth/install', '/cookieError', '/privacy-policy', '/error', '/404'];

/** Public pages that show in the merchant's language when a session says which (they read it if there is one). */
export const SESSION_LANGUAGE_PATHS = ['/404', '/privacy-policy'];

/** Whether the shell reads the session (getSettingInfo) on this path. */
export const readsSessionOn = (pathname: string): boolean =>
  !PUBLIC_PATHS.includes(pathname) || SESSION_LANGUAGE_PATHS.includes(pathname);
