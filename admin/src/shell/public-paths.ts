/**
 * Routes that need no shop credentials (public pages and the install landing). Kept apart from the route
 * table so the shell can read it without importing the router that mounts the shell.
 */
export const PUBLIC_PATHS = ['/', '/auth/install', '/cookieError', '/privacy-policy', '/error', '/404'];
