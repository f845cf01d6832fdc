// The admin's render of the document's first screen (admin/src/render-first-screen.tsx), as the Worker
// sees it: the Worker's type check does not compile the admin's TSX (DOM types, JSX), so it reads this
// declaration (tsconfig.json "paths"), and the admin's type check holds the module to it.

export type FirstScreenInput = {
  /** The document's path and query. */
  href: string;
  /** Launched inside Shopify's admin with a session token. */
  embedded: boolean;
  /** Standalone: the admin token of the document's link. */
  authToken: string | null;
  /** The viewport the markup is for: a phone's, or a wide one. */
  phone: boolean;
  /** The request's time zone (Cloudflare's `request.cf.timezone`), if known: dates are written in it. */
  timeZone: string | null;
  /** The Worker's answers for the screen's first reads, by URL. */
  reads: Record<string, unknown>;
};

export type FirstScreen = {
  html: string;
  /** The interface language it is in. */
  language: string;
  /** Whether it started from the session's settings in the reads (the browser hydrates only then). */
  settings: boolean;
  /** The tab session's storage keys it took as unset (a session's first visit): set, the markup is dropped. */
  flags: string[];
  /** The time zone its dates are written in; null when it wrote none. */
  timeZone: string | null;
  /**
   * The screen rendered: another than the document's path when the set-up wizard's rule sends the merchant
   * on (/setting to /image_optimisation; /main to /guidance unless one of `pathFlags` is set).
   */
  path: string;
  /** The tab session's storage keys that keep the merchant on the document's path when set. */
  pathFlags: string[];
  /**
   * The navigation's history state keys the screen reads, rendered as unset (a direct link): set (a
   * reload of a screen opened from another), the markup is dropped.
   */
  stateKeys: string[];
};

export declare function renderFirstScreen(input: FirstScreenInput): Promise<FirstScreen | null>;
