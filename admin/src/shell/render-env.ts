// What a render of the admin may not read from the browser (issue 26: the first screen rendered in the
// Worker, worker/document-render.ts, then hydrated in the browser, main.tsx). The Worker has no window,
// storage or App Bridge: while it renders, the few functions that read them (api/auth.ts isEmbedded and
// readAuthToken, lib/app-bridge.ts inIframe, the document's first reads in api/first-reads.ts, the
// viewport in shell/viewport.ts) answer from here instead. The render is one synchronous call
// (renderToString), so one module-level value serves it and is gone before another request's code runs.

/** The document's first screen as the Worker sees it. */
export type ServerRender = {
  /** Launched inside Shopify's admin with a session token (App Bridge runs there). */
  embedded: boolean;
  /** Standalone: the admin token the document's link carries. */
  authToken: string | null;
  /** The viewport guessed from the request (a phone's, or a wide one): the layout the markup is for. */
  phone: boolean;
  /** The Worker's answers for the screen's first reads, by URL (worker/document-reads.ts). */
  reads: Record<string, unknown>;
  /**
   * The tab session's flags the render asked about (lib/session-flags.ts), all answered "not closed": the
   * Worker renders a session's first visit, and the browser hydrates only while the flags say the same.
   */
  flagsRead: Set<string>;
  /** The time zone dates are written in (the request's, from Cloudflare; else UTC). */
  timeZone: string;
  /** Set when the render wrote a date or time (lib/intl.ts): the browser hydrates only in the same zone. */
  timeZoneUsed?: boolean;
};

let current: ServerRender | null = null;

/** The render in progress in the Worker, else null (in the browser, always null). */
export const serverRender = (): ServerRender | null => current;

/** Runs a synchronous render with `env` as what the browser would have said. */
export function renderOnServer<T>(env: ServerRender, render: () => T): T {
  current = env;
  try {
    return render();
  } finally {
    current = null;
  }
}
