import i18next from 'i18next';
import type { KeyedMessage } from '../../../shared/messages';

// The Worker's failures carry their text's key and params (shared/messages.ts) beside the English
// `message` / `msg`: the admin shows the key's text from its catalogues, in the merchant's language.
// Every key of shared/messages.ts is in every catalogue (tests/admin/message-catalogue.test.ts), so the
// admin never needs the Worker's own English table. The English texts (en.json's `server` part) are not
// in the first screen's JavaScript either (issue 26): the transport and okAnswer wait for them
// (serverTextsFor) before they hand over an answer that carries a keyed message, so the synchronous
// errorText below finds the key; should they fail to load, the answer's English `message` shows.

let serverTexts: Promise<void> | null = null;

/** Loads the English of the Worker's texts once (a failed download is tried again on the next answer). */
export function loadServerTexts(): Promise<void> {
  serverTexts ??= import('./server-strings').then(
    () => undefined,
    () => {
      serverTexts = null;
    },
  );
  return serverTexts;
}

/**
 * Resolves once the texts of the keyed messages in an answer (its JSON text, or the parsed answer) can be
 * shown; at once when it carries none.
 */
export function serverTextsFor(answer: unknown): Promise<void> {
  const text = typeof answer === 'string' ? answer : answer && typeof answer === 'object' ? JSON.stringify(answer) : '';
  return text.includes('"message_key":') ? loadServerTexts() : Promise.resolve();
}

type MaybeKeyed = { message_key?: unknown; params?: unknown; message?: unknown; msg?: unknown };

/** Params as i18next takes them: a list of keyed messages (server.upload.rejected) becomes its texts. */
function renderParams(params: unknown): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  if (!params || typeof params !== 'object') return out;
  for (const [name, v] of Object.entries(params)) {
    if (Array.isArray(v)) out[name] = v.map((item: KeyedMessage) => keyedText(item) ?? '').join(' ');
    else if (typeof v === 'string' || typeof v === 'number') out[name] = v;
  }
  return out;
}

/** The text of a keyed message in the current language; null when the catalogues lack the key. */
export function keyedText(m: MaybeKeyed | null | undefined): string | null {
  const key = m?.message_key;
  if (typeof key !== 'string' || !i18next.isInitialized || !i18next.exists(key)) return null;
  // File and field names are shown as text (React escapes), never HTML-escaped twice.
  return i18next.t(key, { ...renderParams(m?.params), interpolation: { escapeValue: false } });
}

/**
 * The one "error -> text" of the admin: a failure answer (either envelope family, or one refused upload
 * `{ name, message, message_key, params }`) as text for the merchant. Translated from `message_key` and
 * `params`; the English `message` / `msg` when the key is missing or unknown; else `fallback`.
 */
export function errorText(body: unknown, fallback: string): string {
  if (!body || typeof body !== 'object') return fallback;
  const b = body as MaybeKeyed;
  const translated = keyedText(b);
  if (translated) return translated;
  const m = b.message ?? b.msg;
  return typeof m === 'string' && m ? m : fallback;
}
