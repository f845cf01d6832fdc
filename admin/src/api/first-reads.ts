// The answers the Worker wrote into the document for the first screen (worker/document-reads.ts, issue 26):
// the first GET of each URL takes its answer from there instead of the network, once. They are used only
// - with the credential the Worker used: the authToken of the document's URL, still the admin's token
//   (the merchant may have declined to switch to the link's shop: api/auth.ts), or, embedded, Shopify's
//   id_token for the shop App Bridge runs in;
// - in the first FIRST_READS_FOR_MS of the page: an answer nobody took by then is stale, and dropped.
import { FIRST_READS_ID, type FirstReads, type ReadsVia } from '../../../shared/api/first-reads';
import { serverRender } from '../shell/render-env';

export const FIRST_READS_FOR_MS = 30_000;

type Answers = FirstReads;

/** The document URL's credentials, read when this module loads (before auth.ts takes authToken out of the address bar). */
let launch = launchQuery();

function launchQuery(): URLSearchParams {
  return new URLSearchParams(typeof location === 'undefined' ? '' : location.search);
}

let answers: Answers | null | undefined;

function load(): Answers | null {
  if (answers !== undefined) return answers;
  answers = null;
  if (typeof document === 'undefined') return answers;
  const el = document.getElementById(FIRST_READS_ID);
  if (!el) return answers;
  el.remove();
  try {
    const parsed = JSON.parse(el.textContent ?? '') as Partial<Answers> | null;
    if (parsed && typeof parsed.reads === 'object' && parsed.reads !== null)
      answers = { via: parsed.via ?? null, path: String(parsed.path ?? ''), reads: { ...parsed.reads } };
  } catch {
    // not ours, or cut short: the admin asks the server
  }
  return answers;
}

/** The shop a session token names (its `dest`), unverified: only compared with App Bridge's own. */
function shopOfIdToken(token: string | null): string | null {
  try {
    const payload = JSON.parse(atob((token ?? '').split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { dest?: string };
    return payload.dest ? new URL(payload.dest).hostname : null;
  } catch {
    return null;
  }
}

export type Credential = { embedded: boolean; authToken: string | null; shop: string | null };

/** Whether answers read with `via` belong to the session the admin runs with now. */
function sameSession(via: ReadsVia, now: Credential): boolean {
  if (via === 'authToken') return !now.embedded && now.authToken !== null && now.authToken === launch.get('authToken');
  if (via === 'id_token') return now.embedded && now.shop !== null && now.shop === shopOfIdToken(launch.get('id_token'));
  return false;
}

/**
 * The document's answer for a GET of `url`, taken (a second call gets undefined). `session` says which
 * credential the request goes out with; null for a public URL (no credential: any page may use it).
 * `accept` may refuse the answer (it then stays for the admin's request). In the Worker's render of the
 * first screen (shell/render-env.ts) the answers are the ones the Worker just read for that render.
 */
export function takeFirstRead(
  url: string,
  session: Credential | null,
  now = performanceNow(),
  accept: (body: unknown) => boolean = () => true,
): unknown {
  const server = serverRender();
  if (server) {
    const body = server.reads[url];
    if (body === undefined || !accept(body)) return undefined;
    delete server.reads[url];
    return body;
  }
  const body = peekFirstRead(url, session, now);
  if (body === undefined || !accept(body)) return undefined;
  delete answers!.reads[url];
  return body;
}

/** The document's answer for a GET of `url`, left in place (takeFirstRead's rules). */
export function peekFirstRead(url: string, session: Credential | null, now = performanceNow()): unknown {
  const server = serverRender();
  if (server) return server.reads[url];
  const a = load();
  if (!a || !(url in a.reads)) return undefined;
  if (now > FIRST_READS_FOR_MS) {
    answers = null;
    return undefined;
  }
  if (session !== null && !sameSession(a.via, session)) return undefined;
  return a.reads[url];
}

/**
 * Drops the document's answer for `url`, or every answer left: they were the first screen's, and a read
 * made later (a reload after a job, another screen) must go to the server. The admin drops them all at its
 * first navigation (main.tsx) and the session's settings before reading them again (use-settings-info.ts).
 */
export function dropFirstReads(url?: string): void {
  if (serverRender()) return;
  const a = load();
  if (!a) return;
  if (url === undefined) answers = null;
  else delete a.reads[url];
}

/** For tests: read the document and its URL again, as a page load would. */
export function resetFirstReads(): void {
  answers = undefined;
  launch = launchQuery();
}

function performanceNow(): number {
  return typeof performance === 'undefined' ? 0 : performance.now();
}
