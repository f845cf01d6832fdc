// The first screen's data inside the admin's HTML document (issue 26: Largest Contentful Paint). On a
// phone every screen used to paint only after its code had run, asked getSettingInfo, rendered, asked
// the screen's own reads and rendered again: two round trips behind the scripts. The Worker now makes
// those reads (shared/api/first-reads.ts) while it reads the document's asset, through its own routes
// with the credential the document's URL carries, and writes the answers at the end of <body>. The
// admin takes each answer once, for its first GET of that URL (admin/src/api/first-reads.ts).
//
// - The credential is the one the admin itself would use for this page: Shopify's `id_token` on an
//   embedded launch, or the standalone `authToken` the link carries. Each read goes through the same
//   authenticate middleware as the admin's request would, so it is the same shop's data, scoped the same
//   way; no credential, no shop data (only the public /app-config).
// - Only 200 answers are written: a refusal or an outage is left to the admin's own request, which gets
//   the headers (re-authorisation, retry) and the error handling it always had.
// - The answers are JSON in a `<script type="application/json">` (never executed, so it needs no nonce),
//   with every `<`, `>`, `&` and line separator escaped: no shop text (a name, a template, an alt text)
//   can close the element or open another.
// - The document waits at most READS_DEADLINE_MS for them (a slow Shopify call, /main's theme read, must
//   not hold the page); whatever is late is left out and the admin asks for it as before.
import { looksLikeJwt } from './auth/session-token';
import { MIN_ADMIN_TOKEN_LENGTH } from './middleware/authenticate';
import {
  APP_CONFIG,
  FIRST_READS_ID,
  GUIDE_PENDING_LEAVES,
  GUIDE_PENDING_TARGET,
  SETTING_INFO,
  screenPath,
  shopReadsFor,
  type FirstReads,
  type ReadsVia,
} from '../shared/api/first-reads';

/** How long the end of the document waits for the reads. */
export const READS_DEADLINE_MS = 500;

/** Sends a request through the Worker's own routes (app.fetch), as the admin's request would go. */
export type InternalFetch = (request: Request) => Promise<Response>;

/** The credential the admin will use for this document: Shopify's launch id_token, else the standalone authToken. */
export function documentCredential(url: URL): { via: ReadsVia; token: string | null } {
  const idToken = (url.searchParams.get('id_token') ?? '').trim();
  if (idToken && looksLikeJwt(idToken)) return { via: 'id_token', token: idToken };
  const authToken = (url.searchParams.get('authToken') ?? '').trim();
  if (authToken.length >= MIN_ADMIN_TOKEN_LENGTH && !looksLikeJwt(authToken)) return { via: 'authToken', token: authToken };
  return { via: null, token: null };
}

/** One read through the Worker's routes: its JSON body when the answer is a 200 JSON, else undefined. */
async function readOne(fetcher: InternalFetch, origin: string, path: string, token: string | null): Promise<unknown> {
  try {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (token) headers.Authorization = `Bearer ${token}`;
    const res = await fetcher(new Request(new URL(path, origin), { headers }));
    if (res.status !== 200 || !(res.headers.get('Content-Type') ?? '').includes('application/json')) {
      await res.body?.cancel();
      return undefined;
    }
    return await res.json<unknown>();
  } catch {
    return undefined;
  }
}

/** Whether a getSettingInfo answer says the shop has not finished the set-up wizard. */
function guidePending(body: unknown): boolean {
  const data = (body as { data?: { new_guide_status?: unknown } } | undefined)?.data;
  return data?.new_guide_status === 1;
}

/**
 * Makes the reads of the document's screen, each answer put into `into.reads` as it comes (the caller
 * applies the deadline). A wizard-pending shop's /main and /setting also get the reads of the screen
 * they are sent on to.
 */
export async function firstReads(fetcher: InternalFetch, url: URL, into: FirstReads = emptyReads(url)): Promise<FirstReads> {
  const { via, token } = documentCredential(url);
  const path = screenPath(url.pathname);
  into.via = via;
  // Reads of a screen the merchant will not see (a wizard-pending shop's /setting): not written.
  const dropped = new Set<string>();
  const one = async (p: string) => {
    const body = await readOne(fetcher, url.origin, p, p === APP_CONFIG ? null : token);
    if (body !== undefined && !dropped.has(p)) into.reads[p] = body;
    return body;
  };
  const tasks: Promise<unknown>[] = [one(APP_CONFIG)];
  const shopReads = token ? shopReadsFor(path, false, url.searchParams) : [];
  if (shopReads.length) {
    const [, ...own] = shopReads; // SETTING_INFO first: it decides whether the wizard's target follows
    tasks.push(
      one(SETTING_INFO).then(async (info) => {
        if (!GUIDE_PENDING_TARGET[path] || !guidePending(info)) return;
        const wanted = shopReadsFor(path, true, url.searchParams);
        if (GUIDE_PENDING_LEAVES.includes(path))
          for (const p of shopReads.filter((r) => !wanted.includes(r))) {
            dropped.add(p);
            delete into.reads[p];
          }
        const more = wanted.filter((p) => !shopReads.includes(p));
        await Promise.all(more.map(one));
      }),
      ...own.map(one),
    );
  }
  await Promise.all(tasks);
  return into;
}

const emptyReads = (url: URL): FirstReads => ({ via: null, path: screenPath(url.pathname), reads: {} });

/** JSON that is safe as the text of a <script> element (and inside HTML in general). */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The element the admin reads; empty when nothing answered. */
export function firstReadsElement(answers: FirstReads): string {
  if (Object.keys(answers.reads).length === 0) return '';
  return `<script type="application/json" id="${FIRST_READS_ID}">${scriptSafeJson(answers)}</script>`;
}

/**
 * The reads that answered within the deadline (the others are left to the admin). `deadline` is the
 * timer (a test passes its own).
 */
export async function firstReadsBy(
  fetcher: InternalFetch,
  url: URL,
  deadline: (ms: number) => { done: Promise<void>; cancel: () => void } = timer,
): Promise<FirstReads> {
  const answers = emptyReads(url);
  const late = deadline(READS_DEADLINE_MS);
  try {
    await Promise.race([firstReads(fetcher, url, answers), late.done]);
  } finally {
    late.cancel();
  }
  // A copy as it is now: a read answering later does not change what was written.
  return { ...answers, reads: { ...answers.reads } };
}

function timer(ms: number): { done: Promise<void>; cancel: () => void } {
  let cancel = () => {};
  const done = new Promise<void>((resolve) => {
    const id = setTimeout(resolve, ms);
    cancel = () => clearTimeout(id);
  });
  return { done, cancel };
}
