import i18next from 'i18next';
import en from '../../locales/en.json';

// The Worker answers failures in English (`{ack:0, message}` / `{code, msg}`, the documented texts).
// The admin shows them in the merchant's language: an exact text is found through a reverse index of
// the English catalogue's `server.*` section; a text with a variable part (a count, a file name) through
// the patterns below. Anything else (e.g. Shopify's own userErrors) is shown as sent.

export type Translate = (key: string, options?: Record<string, unknown>) => string;

function flatten(node: unknown, prefix: string, out: Map<string, string>): Map<string, string> {
  if (typeof node === 'string') {
    // Texts with an interpolation are reached through a pattern, never by exact match.
    if (!node.includes('{{') && !out.has(node)) out.set(node, prefix);
  } else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) flatten(v, `${prefix}.${k}`, out);
  }
  return out;
}

/** English server message -> catalogue key. */
const EXACT = flatten(en.server, 'server', new Map());

const TAB_KEYS: Record<string, string> = {
  product: 'server.optimise.tabProduct',
  collection: 'server.optimise.tabCollection',
  blog: 'server.optimise.tabBlog',
};

// One rejected upload: "<file name> <reason>" (worker/optimise/upload.ts); names may contain spaces.
const REJECTION = /(.+?) (is not supported\. File type must be \.jpg, \.png\.|is too large\. Each image must be 5 MB or smaller\.|is too large\. Images can be at most 25 megapixels\.)(?: |$)/gy;
const REJECTION_KEYS: Record<string, string> = {
  'is not supported. File type must be .jpg, .png.': 'server.upload.notSupported',
  'is too large. Each image must be 5 MB or smaller.': 'server.upload.tooLarge',
  'is too large. Images can be at most 25 megapixels.': 'server.upload.tooManyPixels',
};

/** The list after the upload heading: each "<name> <reason>" translated; an unparsed tail stays as sent. */
function localiseRejections(list: string, t: Translate): string {
  const parts: string[] = [];
  REJECTION.lastIndex = 0;
  let end = 0;
  for (let m = REJECTION.exec(list); m; m = REJECTION.exec(list)) {
    parts.push(t(REJECTION_KEYS[m[2] ?? ''] ?? '', { name: m[1], interpolation: { escapeValue: false } }));
    end = REJECTION.lastIndex;
  }
  if (end < list.length) parts.push(list.slice(end));
  return parts.join(' ');
}

export type ServerMessagePattern = {
  re: RegExp;
  key: string;
  values: (m: RegExpExecArray, t: Translate) => Record<string, string>;
};

/** Messages with a variable part, as the Worker builds them (file named on each line). */
export const SERVER_MESSAGE_PATTERNS: ServerMessagePattern[] = [
  // worker/optimise/upload.ts: every file refused, heading + "<name> <reason>" list. First: its lines
  // end like the single-file patterns below.
  { re: /^The following images couldn't be uploaded: ([\s\S]+)$/, key: 'server.upload.rejected', values: (m, t) => ({ list: localiseRejections(m[1] ?? '', t) }) },
  // worker/optimise/errors.ts planLimitMessage (image-optimisation.md section 8)
  { re: /^There are (\d+) images that can be optimized\.$/, key: 'server.optimise.planLimit', values: (m) => ({ count: m[1] ?? '' }) },
  // worker/optimise/errors.ts MSG_UPLOAD_TOO_MANY
  { re: /^Upload at most (\d+) images at a time\.$/, key: 'server.upload.tooMany', values: (m) => ({ count: m[1] ?? '' }) },
  // worker/optimise/errors.ts msgSelectCorrectStateOf(tab)
  {
    re: /^Select the correct state of the (\S+) image operation$/,
    key: 'server.optimise.selectCorrectStateOf',
    values: (m, t) => ({ tab: TAB_KEYS[m[1] ?? ''] ? t(TAB_KEYS[m[1] ?? ''] ?? '') : (m[1] ?? '') }),
  },
  // worker/optimise/upload.ts: one file refused
  { re: /^(.+?) is not supported\. File type must be \.jpg, \.png\.$/, key: 'server.upload.notSupported', values: (m) => ({ name: m[1] ?? '' }) },
  { re: /^(.+?) is too large\. Each image must be 5 MB or smaller\.$/, key: 'server.upload.tooLarge', values: (m) => ({ name: m[1] ?? '' }) },
  { re: /^(.+?) is too large\. Images can be at most 25 megapixels\.$/, key: 'server.upload.tooManyPixels', values: (m) => ({ name: m[1] ?? '' }) },
  // worker/lib/validate.ts parseInput fallback and worker/routes/optimise.ts: names the field
  { re: /^Invalid value for (\S+)$/, key: 'server.common.invalidValueFor', values: (m) => ({ field: m[1] ?? '' }) },
  // worker/routes/history.ts page size refinement
  { re: /^pageSize must be one of (.+)$/, key: 'server.common.pageSizeOneOf', values: (m) => ({ values: m[1] ?? '' }) },
];

/** The catalogue key (and interpolation values) of a server message, or null when it has none. */
export function serverMessageKey(message: string, t: Translate): { key: string; values?: Record<string, string> } | null {
  const exact = EXACT.get(message);
  if (exact) return { key: exact };
  for (const p of SERVER_MESSAGE_PATTERNS) {
    const m = p.re.exec(message);
    if (m) return { key: p.key, values: p.values(m, t) };
  }
  return null;
}

const globalT: Translate = (key, options) => i18next.t(key, options ?? {}) as string;

/** The server's English message in the merchant's language; the original text when it is unknown. */
export function localiseServerMessage(message: string, t: Translate = globalT): string {
  if (t === globalT && !i18next.isInitialized) return message;
  const found = serverMessageKey(message, t);
  if (!found) return message;
  // File names and field names are shown as text (React escapes), never HTML-escaped twice.
  const text = t(found.key, { ...found.values, interpolation: { escapeValue: false } });
  return text && text !== found.key ? text : message;
}
