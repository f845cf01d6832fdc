// Input schemas of the account calls, with the documented validation messages
// ('Name should not be empty', 'Email should not be empty', 'Description should not be empty'),
// given as their keys of shared/messages.ts.
import { z } from 'zod';
import { isLanguageCode } from '../../shared/languages';
import type { MessageKey } from '../../shared/messages';

/**
 * Control characters (and bidirectional overrides) are stripped from stored contact fields: they would
 * forge lines or reorder text where support reads them. Line breaks and tabs survive only where a field
 * is multi-line (the description).
 */
// eslint-disable-next-line no-control-regex -- control characters are what these two patterns remove
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex -- as above
const CONTROL_AND_BREAKS = /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;
export const stripControl = (v: string, multiline = false) => v.replace(multiline ? CONTROL : CONTROL_AND_BREAKS, '');
const cleaned = (multiline: boolean) => (v: unknown) => (v == null ? '' : typeof v === 'string' ? stripControl(v, multiline) : v);

/** A form text field: missing counts as empty, so the documented "should not be empty" message shows. */
const text = (emptyMessage: MessageKey, max: number, tooLong: MessageKey, multiline = false) =>
  z.preprocess(cleaned(multiline), z.string({ error: emptyMessage }).trim().min(1, emptyMessage).max(max, tooLong));

const optionalText = (max: number, tooLong: MessageKey) => z.preprocess(cleaned(false), z.string().trim().max(max, tooLong));

/** A whole number from a form field; an empty or missing field is an error (never coerced to 0). */
export const wholeNumber = (message: MessageKey) =>
  z.preprocess(
    (v) => (v == null || (typeof v === 'string' && v.trim() === '') ? Number.NaN : v),
    z.coerce.number({ error: message }).int(message),
  );

// One @, no spaces, a dot in the domain: what a merchant can be told to fix, without RFC corner cases.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const INVALID_EMAIL: MessageKey = 'server.account.invalidEmail';

export const contactUsInput = z.object({
  name: text('server.account.nameEmpty', 100, 'server.account.nameTooLong'),
  email: text('server.account.emailEmpty', 254, 'server.account.emailTooLong').pipe(z.string().regex(EMAIL, INVALID_EMAIL)),
  title: optionalText(200, 'server.account.titleTooLong'),
  description: text('server.account.descriptionEmpty', 5000, 'server.account.descriptionTooLong', true),
  path: optionalText(500, 'server.account.pathTooLong'),
  kind: z.enum(['contact', 'feedback', 'quota_request'], { error: 'server.account.invalidKind' }).default('contact'),
});

export const contactLogInput = z.object({
  path: optionalText(500, 'server.account.pathTooLong'),
  content: text('server.account.descriptionEmpty', 5000, 'server.account.descriptionTooLong', true),
});

export const languageInput = z.object({
  Language: z
    .string({ error: 'server.account.unsupportedLanguage' })
    .refine(isLanguageCode, 'server.account.unsupportedLanguage'),
});

export const reviewInput = z.object({
  score: wholeNumber('server.account.scoreRange').pipe(
    z.number().min(0, 'server.account.scoreRange').max(5, 'server.account.scoreRange'),
  ),
});

const flag = wholeNumber('server.account.stFlag').pipe(z.union([z.literal(0), z.literal(1)], { error: 'server.account.stFlag' }));

export const appSwitchInput = z.object({
  name: z.enum(['is_over_quota', 'extra_adver'], { error: 'server.account.unknownSwitch' }),
  st: flag,
  exp: z.coerce
    .number({ error: 'server.account.expNumber' })
    .int('server.account.expNumber')
    .min(0, 'server.account.expNumber')
    .default(0),
  type: z.literal('param', { error: 'server.account.typeParam' }).default('param'),
});

export const customerClickInput = z.object({
  key: z.string({ error: 'server.account.invalidKey' }).regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'server.account.invalidKey'),
  // Any value is kept as its text: an object or array as its JSON (String() of `{"toString": 1}` threw: a 500).
  value: z.preprocess(
    (v) => (v == null ? '1' : typeof v === 'object' && !(v instanceof File) ? JSON.stringify(v) : String(v as string)),
    z.string().max(500, 'server.account.valueTooLong'),
  ),
});
