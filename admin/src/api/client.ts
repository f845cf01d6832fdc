import { openTop } from '../lib/app-bridge';
import { authHeader, isEmbedded, readAuthToken } from './auth';
import { dropFirstReads, peekFirstRead, takeFirstRead, type Credential } from './first-reads';

// The document's answers go through here only (one chunk with the transport, no extra request).
export { dropFirstReads, takeFirstRead };
import { errorText, serverTextsFor } from './error-text';
import { isOk, type Envelope } from '../../../shared/api/envelope';

// Transport for the documented calls. The server answers {ack, data, message} (v2 and image calls) or
// {code, msg, data} (older v1 calls); both are returned as parsed, and callers test them with isOk.
// The envelope types and isOk are the contract's (shared/api/envelope.ts).
export type { AckEnvelope, Envelope, V1Envelope } from '../../../shared/api/envelope';
export { isOk };

export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The message the server sent with a failure, for the error toast, in the merchant's language (errorText). */
export const messageOf = errorText;

type Query = Record<string, string | number | boolean | undefined | null>;

function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) params.set(k, String(v));
  const s = params.toString();
  return s ? `${path}?${s}` : path;
}

/** Shopify's re-authorisation answer (as shopify-app-js sends it): 401 + where the top frame must go. */
export const REAUTHORIZE_URL_HEADER = 'X-Shopify-API-Request-Failure-Reauthorize-Url';
/** A stale session token: App Bridge mints a fresh one and the request is sent once more. */
export const RETRY_INVALID_SESSION_HEADER = 'X-Shopify-Retry-Invalid-Session-Request';

async function request(path: string, init: RequestInit): Promise<Response> {
  return fetch(path, { ...init, headers: { Accept: 'application/json', ...(await authHeader()), ...(init.headers ?? {}) } });
}

async function send<T>(path: string, init: RequestInit): Promise<T> {
  let res = await request(path, init);
  if (res.status === 401 && res.headers.get(RETRY_INVALID_SESSION_HEADER) === '1' && isEmbedded())
    res = await request(path, init);
  const reauthorize = res.status === 401 ? res.headers.get(REAUTHORIZE_URL_HEADER) : null;
  // The shop must authorise the app again: leave the iframe for Shopify's grant screen (top frame).
  if (reauthorize && /^https?:\/\//.test(reauthorize)) openTop(reauthorize);
  const text = await res.text().catch(() => '');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiRequestError(res.status, `HTTP ${res.status}`);
  }
  // The Worker's texts for the keyed messages in it (a refusal, an upload's refused files), when it has any.
  await serverTextsFor(text);
  // Envelopes come with 4xx too (validation, auth); the caller shows their message. 5xx is an outage.
  if (res.status >= 500) throw new ApiRequestError(res.status, messageOf(body, `HTTP ${res.status}`));
  if (res.status === 401) throw new ApiRequestError(401, messageOf(body, 'Unauthorized'));
  return body as T;
}

/** The credential a request goes out with now (api/first-reads.ts matches it with the document's). */
function credential(): Credential {
  const embedded = isEmbedded();
  const shop = embedded && typeof window !== 'undefined' ? window.shopify?.config?.shop : null;
  return { embedded, authToken: embedded ? null : readAuthToken(), shop: shop || null };
}

/** While a call is looked at (documentAnswerOf), what get() was asked: no request goes out. */
let looking: { url: string | null; answer: Promise<never> } | null = null;

/** Whether a call is being looked at (documentAnswerOf): api/early.ts keeps its answer for the real call. */
export const lookingAtCall = () => looking !== null;

/**
 * The document's answer (first reads) for what `call` would read, when `call` is exactly one get()
 * (`() => get(url)`, as the documented reads are) and `accept` takes the answer; else undefined. The
 * answer is taken: the screen renders with it at once (api/query.tsx) instead of one task later.
 */
export function documentAnswerOf<E>(call: () => Promise<E>, accept: (body: unknown) => boolean): E | undefined {
  looking = { url: null, answer: new Promise<never>(() => {}) };
  const seen = looking;
  let returned: unknown;
  try {
    returned = call();
  } catch {
    returned = undefined;
  } finally {
    looking = null;
  }
  if (!seen.url || returned !== seen.answer) return undefined;
  return takeFirstRead(seen.url, credential(), undefined, accept) as E | undefined;
}

/** The document's answer for a GET of `path` without taking it (main.tsx reads the session's settings). */
export function documentAnswer(path: string): unknown {
  return peekFirstRead(path, credential());
}

export function get<T = Envelope>(path: string, query?: Query): Promise<T> {
  const url = withQuery(path, query);
  if (looking) {
    // A second read in one call: not one answer (documentAnswerOf gives none).
    looking.url = looking.url === null ? url : '';
    return looking.answer;
  }
  // The first screen's reads: answered inside the document when the Worker could (issue 26).
  const answer = takeFirstRead(url, credential());
  if (answer !== undefined) return Promise.resolve(answer as T);
  return send<T>(url, { method: 'GET' });
}

/** Form-encoded POST: most documented calls. Nested values are sent as JSON strings. */
export function postForm<T = Envelope>(path: string, data: Record<string, unknown> = {}): Promise<T> {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(data)) {
    if (v === undefined || v === null) continue;
    form.set(k, typeof v === 'string' ? v : JSON.stringify(v)); // numbers and booleans print the same either way
  }
  return send<T>(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
}

/** JSON POST: saveSettings, saveNewGuideCfg and the calls with nested lists. */
export function postJson<T = Envelope>(path: string, data: unknown): Promise<T> {
  return send<T>(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(data) });
}
