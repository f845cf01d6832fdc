/// <reference types="node" />
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { messageOf } from '../../admin/src/api/client';
import { localiseServerMessage, serverMessageKey, type Translate } from '../../admin/src/api/server-messages';
import { initI18n } from '../../admin/src/i18n';
import { MSG_NEED_ONE_ITEM, MSG_WATERMARK_TOO_LARGE } from '../../shared/image-settings';

// (a) Static scan: every message literal the Worker can answer with must have a `server.*` catalogue
// entry or a pattern in admin/src/api/server-messages.ts, so a message added later without a
// translation fails the build. Extraction (plain text, no TS parser):
//   - arguments of new ValidationError/ApiError/ConflictError/AuthError/NotFoundError(...)
//   - constants named *MSG* / *MESSAGE* (strings, templates, arrow functions returning a template, and
//     the string values of an object literal such as FAILURE_MESSAGES)
//   - zod messages: `{ error: X }` and the message argument of .min/.max/.int/.regex/.refine/...
//   - `message:` / `msg:` fields with a literal or template value (route answers, upload rejections)
//   - in files using zod, literal arguments of schema helpers defined in that file (text('Name...'))
//   - default messages (`message = 'Not found'`) and literal arguments of errorBody() (the onError 500)
// `${expr}` in a template becomes the value of a known UPPER_CASE constant, else the sample "2".

const ROOT = join(__dirname, '../..');
const ERROR_CLASSES = 'ValidationError|ApiError|ConflictError|AuthError|NotFoundError';
const ZOD_MESSAGE_METHODS = 'min|max|int|regex|refine|length|nonempty|positive|nonnegative|gte|lte|gt|lt|email|url';

/** Texts that never reach a merchant's screen: not translated on purpose. */
const DEVELOPER_ONLY = new Set([
  // Webhook endpoint: only Shopify's delivery system reads these answers.
  'Missing or invalid webhook headers',
  'Webhook body is not valid JSON',
  // worker/shopify internals: ShopifyGraphqlError/ShopifyUserError entries, logged and turned into a
  // retry or 'Internal Server Error' (or the billing/reauthorise messages) before any answer.
  'Shopify answered without data',
  'File processing failed',
  'file 2 not found',
  'Query cost is 2, which exceeds the single query max cost limit (1000).',
  'Shopify rejected the access token',
  'Shopify kept throttling the request',
  // config/recommendations.json is validated when the Worker loads: a deploy-time error for developers.
  'iframeUrl needs {shop}, {appId} and {user}',
  'a per-language text needs en',
  'unknown language code',
]);

/** Error-constructor arguments whose text is computed; each says where its texts are checked. */
const DYNAMIC_ARGUMENTS = new Set([
  // shared/image-settings.ts validation result: its messages are the MSG_* constants scanned here.
  'checked.message',
  // Shopify's own userErrors, already localised by Shopify for the store; we cannot translate them.
  "err.userErrors.map((e) => e.message).join('; ')",
  // worker/optimise/plan.ts refusal(): returns MSG_EXPIRED / MSG_DELETED / MSG_NOTHING_TO_OPTIMISE /
  // MSG_SELECT_CORRECT_STATE, all scanned as constants.
  'refusal(req.processType, reasons)',
  // worker/lib/validate.ts: the first zod issue (schema messages scanned here; fallback literal below).
  "result.error.issues[0]?.message ?? 'Invalid input'",
  // worker/shopify/webhooks-trust.ts: why a webhook delivery was refused (401 to Shopify, never shown
  // to a merchant).
  'fresh.reason',
  'signed.reason',
]);

type Found = { text: string; where: string };

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'spec' || name === 'design' ? [] : files(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Index just past the string/template literal starting at i (quotes and nested ${...} respected). */
function literalEnd(src: string, i: number): number {
  const quote = src[i];
  let j = i + 1;
  while (j < src.length && src[j] !== quote) {
    if (src[j] === '\\') j += 2;
    else if (quote === '`' && src.startsWith('${', j)) j = exprEnd(src, j + 2, '}') + 1;
    else j += 1;
  }
  return j + 1;
}

/** Index of the closing character (')' or '}' or ',' at depth 0) of an expression starting at i. */
function exprEnd(src: string, i: number, close: string): number {
  let depth = 0;
  let j = i;
  while (j < src.length) {
    const ch = src[j] ?? '';
    if (ch === "'" || ch === '"' || ch === '`') {
      j = literalEnd(src, j);
      continue;
    }
    if ('([{'.includes(ch)) depth += 1;
    else if (')]}'.includes(ch)) {
      if (depth === 0) return j;
      depth -= 1;
    } else if (depth === 0 && close.includes(ch)) return j;
    j += 1;
  }
  return j;
}

/** Top-level comma-separated arguments of a call whose '(' is at i - 1. */
function args(src: string, i: number): string[] {
  const out: string[] = [];
  let j = i;
  for (;;) {
    const end = exprEnd(src, j, ',)');
    const a = src.slice(j, end).trim();
    if (a) out.push(a);
    if (src[end] !== ',' || end >= src.length) return out;
    j = end + 1;
  }
}

// The Worker texts the mapping tests send (as worker/optimise/errors.ts and upload.ts build them; the
// scan above proves these exact texts are what the Worker can send).
const planLimitMessage = (n: number) => `There are ${n} images that can be optimized.`;
const MSG_UPLOAD_TYPE = 'is not supported. File type must be .jpg, .png.';
const MSG_UPLOAD_FILE_TOO_LARGE = 'is too large. Each image must be 5 MB or smaller.';
const MSG_UPLOAD_REJECTED_HEADING = "The following images couldn't be uploaded:";

const isLiteral = (e: string) => /^(['"`])[\s\S]*\1$/.test(e) && literalEnd(e, 0) === e.length;

function scan() {
  const sources = [...files(join(ROOT, 'worker')), ...files(join(ROOT, 'shared'))].map((p) => ({ where: relative(ROOT, p), src: readFileSync(p, 'utf8') }));
  const consts = new Map<string, string>();
  const fragments = new Set<string>();

  // Values of constants; a template resolves constants defined earlier (two passes for order).
  const evaluate = (e: string): string | null => {
    e = e.trim().replace(/ as const$/, '');
    if (isLiteral(e)) {
      const body = e.slice(1, -1);
      if (e[0] !== '`') return body.replace(/\\(.)/g, '$1');
      let out = '';
      for (let j = 0; j < body.length; ) {
        if (body.startsWith('${', j)) {
          const end = exprEnd(body, j + 2, '}');
          const inner = body.slice(j + 2, end).trim();
          // Only UPPER_CASE constants are resolved (lower-case names are local variables in many files).
          out += (/^[A-Z][A-Z0-9_]*$/.test(inner) ? consts.get(inner) : undefined) ?? '2';
          j = end + 1;
        } else out += body[j++];
      }
      return out;
    }
    if (/^-?\d+$/.test(e)) return e;
    const call = /^([A-Za-z_$][\w$]*)(\(.*\))?$/s.exec(e);
    if (call?.[1] && consts.has(call[1])) return consts.get(call[1]) ?? null;
    return null;
  };
  for (let pass = 0; pass < 2; pass++) {
    for (const { src } of sources) {
      for (const m of src.matchAll(/\bconst ([A-Za-z_$][\w$]*)(?::[^=]+)? = (?:\([^()]*\) => )?/g)) {
        const start = (m.index ?? 0) + m[0].length;
        const v = evaluate(src.slice(start, exprEnd(src, start, ';,\n')));
        if (v !== null && m[1]) consts.set(m[1], v);
      }
    }
  }
  for (const { src } of sources) for (const m of src.matchAll(/\$\{\s*([A-Z][A-Z0-9_]+)\s*\}/g)) if (m[1]) fragments.add(m[1]);

  const found: Found[] = [];
  const dynamic: Found[] = [];
  const take = (expr: string, where: string, strict: boolean) => {
    const v = evaluate(expr);
    // Loose rules (zod arguments, helper calls) only keep texts with words, never a bare limit like 500.
    if (v !== null && (strict || /[A-Za-z]{2}/.test(v))) found.push({ text: v, where });
    else if (v === null && strict) dynamic.push({ text: expr, where });
  };
  for (const { where, src } of sources) {
    const line = (i: number) => `${where}:${src.slice(0, i).split('\n').length}`;
    for (const m of src.matchAll(new RegExp(`new (?:${ERROR_CLASSES})\\(`, 'g'))) {
      const a = args(src, (m.index ?? 0) + m[0].length);
      const message = /^\d+$/.test(a[0] ?? '') ? a[1] : a[0];
      if (message) take(message, line(m.index ?? 0), true);
    }
    for (const m of src.matchAll(/\bconst ([A-Z0-9_]*(?:MSG|MESSAGE)[A-Z0-9_]*)\b[^=]*= /g)) {
      if (!m[1] || fragments.has(m[1])) continue; // a fragment is checked inside the text it builds
      const start = (m.index ?? 0) + m[0].length;
      if (src[start] === '{') {
        const body = src.slice(start + 1, exprEnd(src, start + 1, '}'));
        for (const v of body.matchAll(/:\s*((['"`])(?:\\.|(?!\2)[\s\S])*\2)/g)) if (v[1]) take(v[1], line(start), true);
      } else take(src.slice(start, exprEnd(src, start, ';\n')), line(start), true);
    }
    for (const m of src.matchAll(/\bconst ((?:msg|[a-z][\w$]*(?:Message|Msg))[\w$]*) = \([^()]*\) => /g)) {
      const start = (m.index ?? 0) + m[0].length;
      take(src.slice(start, exprEnd(src, start, ';\n')), line(start), true);
    }
    for (const m of src.matchAll(/\{\s*error:\s*/g)) {
      const start = (m.index ?? 0) + m[0].length;
      take(src.slice(start, exprEnd(src, start, ',}')), line(start), false);
    }
    for (const m of src.matchAll(/\bmessage = (?=['"`])/g)) {
      const start = (m.index ?? 0) + m[0].length;
      take(src.slice(start, literalEnd(src, start)), line(start), true);
    }
    for (const m of src.matchAll(/\berrorBody\(/g)) {
      const last = args(src, (m.index ?? 0) + m[0].length).at(-1);
      if (last && isLiteral(last)) take(last, line(m.index ?? 0), true);
    }
    for (const m of src.matchAll(new RegExp(`\\.(?:${ZOD_MESSAGE_METHODS})\\(`, 'g'))) {
      const a = args(src, (m.index ?? 0) + m[0].length);
      const last = a.at(-1);
      if (last && (isLiteral(last) || /^[A-Z][A-Z0-9_]+$/.test(last))) take(last, line(m.index ?? 0), false);
    }
    for (const m of src.matchAll(/[{,]\s*(?:message|msg):\s*(?=['"`])/g)) {
      const start = (m.index ?? 0) + m[0].length;
      take(src.slice(start, literalEnd(src, start)), line(start), true);
    }
    if (/from 'zod'/.test(src)) {
      const helpers = [...src.matchAll(/\bconst ([a-z][\w$]*) = \(/g)].map((h) => h[1]).filter(Boolean);
      for (const h of helpers) {
        for (const m of src.matchAll(new RegExp(`\\b${h}\\(`, 'g'))) {
          for (const a of args(src, (m.index ?? 0) + m[0].length)) if (isLiteral(a)) take(a, line(m.index ?? 0), false);
        }
      }
    }
  }
  return { found, dynamic };
}

const tOf = (lng: string): Translate => (key, options) => i18next.t(key, { lng, ...options }) as string;

beforeAll(async () => {
  initI18n('en');
  await i18next.changeLanguage('en');
});
afterEach(() => void i18next.changeLanguage('en'));

describe('server messages: every Worker message has a translation', () => {
  const { found, dynamic } = scan();

  it('finds the messages (the scan works)', () => {
    const texts = new Set(found.map((f) => f.text));
    for (const known of [MSG_NEED_ONE_ITEM, 'Name should not be empty', 'Invalid value for data_type', 'Internal Server Error', planLimitMessage(2), `2 ${MSG_UPLOAD_TYPE}`, 'Missing credentials', 'Unsupported language']) {
      expect(texts, known).toContain(known);
    }
    expect(texts.size).toBeGreaterThan(70);
  });

  it('every message has a server.* entry or a pattern, and reads verbatim in English', () => {
    const missing = found
      .filter((f) => !DEVELOPER_ONLY.has(f.text) && f.text !== 'string')
      .filter((f) => !serverMessageKey(f.text, tOf('en')) || localiseServerMessage(f.text, tOf('en')) !== f.text)
      .map((f) => `${f.where}: ${JSON.stringify(f.text)}`);
    expect(missing).toEqual([]);
  });

  it('computed error messages are listed and explained', () => {
    expect(dynamic.filter((d) => !DYNAMIC_ARGUMENTS.has(d.text)).map((d) => `${d.where}: ${d.text}`)).toEqual([]);
  });
});

describe('localiseServerMessage', () => {
  it('translates an exact message in Japanese and German', () => {
    expect(localiseServerMessage(MSG_WATERMARK_TOO_LARGE, tOf('ja'))).toBe('透かし画像の最大サイズは500KBです');
    expect(localiseServerMessage('Please authorise the app again to continue.', tOf('ge'))).toBe('Bitte autorisieren Sie die App erneut, um fortzufahren.');
    expect(localiseServerMessage('Name should not be empty', tOf('ja'))).toBe('名前を入力してください');
  });

  it('translates a patterned message with its number or file name', () => {
    expect(localiseServerMessage(planLimitMessage(37), tOf('ja'))).toBe('最適化できる画像が 37 件あります。');
    expect(localiseServerMessage(planLimitMessage(37), tOf('ge'))).toBe('Es gibt 37 Bilder, die optimiert werden können.');
    expect(localiseServerMessage('Invalid value for page_type', tOf('ge'))).toBe('Ungültiger Wert für page_type');
    expect(localiseServerMessage('Select the correct state of the collection image operation', tOf('ge'))).toBe('Wählen Sie den richtigen Status für den Bildvorgang (Kollektionen)');
  });

  it('translates every line of a refused upload, file names kept as sent', () => {
    const sent = `${MSG_UPLOAD_REJECTED_HEADING} my cat & dog.webp ${MSG_UPLOAD_TYPE} big.png ${MSG_UPLOAD_FILE_TOO_LARGE}`;
    expect(localiseServerMessage(sent, tOf('ge'))).toBe(
      'Die folgenden Bilder konnten nicht hochgeladen werden: my cat & dog.webp wird nicht unterstützt. Der Dateityp muss .jpg oder .png sein. big.png ist zu groß. Jedes Bild darf höchstens 5 MB groß sein.',
    );
    expect(localiseServerMessage(sent, tOf('en'))).toBe(sent);
  });

  it('keeps an unknown message (e.g. a Shopify userError) as sent', () => {
    expect(localiseServerMessage('Price must be greater than 0', tOf('ja'))).toBe('Price must be greater than 0');
  });

  it('messageOf shows the server message in the current language', async () => {
    await i18next.changeLanguage('ja');
    expect(messageOf({ ack: 0, message: 'The input cannot be empty!' }, 'x')).toBe(i18next.t('server.settings.inputEmpty'));
    expect(messageOf({ code: '400', msg: planLimitMessage(3) }, 'x')).toBe('最適化できる画像が 3 件あります。');
    expect(messageOf({ ack: 0 }, 'fallback')).toBe('fallback');
  });
});
