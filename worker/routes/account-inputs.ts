// Input schemas of the account calls, with the documented validation messages (image-optimisation.md
// section 5: 'Name should not be empty', 'Email should not be empty', 'Description should not be empty').
import { z } from 'zod';
import { isLanguageCode } from '../../shared/languages';

/**
 * Control characters (and bidirectional overrides) are stripped from stored contact fields: they would
 * forge lines or reorder text where support reads them. Line breaks and tabs survive only where a field
 * is multi-line (the description).
 */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;
const CONTROL_AND_BREAKS = /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;
export const stripControl = (v: string, multiline = false) => v.replace(multiline ? CONTROL : CONTROL_AND_BREAKS, '');
const cleaned = (multiline: boolean) => (v: unknown) => (v == null ? '' : typeof v === 'string' ? stripControl(v, multiline) : v);

/** A form text field: missing counts as empty, so the documented "should not be empty" message shows. */
const text = (emptyMessage: string, max: number, tooLong: string, multiline = false) =>
  z.preprocess(cleaned(multiline), z.string({ error: emptyMessage }).trim().min(1, emptyMessage).max(max, tooLong));

const optionalText = (max: number, tooLong: string) => z.preprocess(cleaned(false), z.string().trim().max(max, tooLong));

/** A whole number from a form field; an empty or missing field is an error (never coerced to 0). */
export const wholeNumber = (message: string) =>
  z.preprocess((v) => (v == null || (typeof v === 'string' && v.trim() === '') ? Number.NaN : v), z.coerce.number({ error: message }).int(message));

// One @, no spaces, a dot in the domain: what a merchant can be told to fix, without RFC corner cases.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const INVALID_EMAIL = 'Please enter a valid email address';

export const contactUsInput = z.object({
  name: text('Name should not be empty', 100, 'Name is too long'),
  email: text('Email should not be empty', 254, 'Email is too long').pipe(z.string().regex(EMAIL, INVALID_EMAIL)),
  title: optionalText(200, 'Title is too long'),
  description: text('Description should not be empty', 5000, 'Description is too long', true),
  path: optionalText(500, 'Path is too long'),
  kind: z.enum(['contact', 'feedback', 'quota_request'], { error: 'Invalid message kind' }).default('contact'),
});

export const contactLogInput = z.object({
  path: optionalText(500, 'Path is too long'),
  content: text('Description should not be empty', 5000, 'Description is too long', true),
});

export const languageInput = z.object({
  Language: z.string({ error: 'Unsupported language' }).refine(isLanguageCode, 'Unsupported language'),
});

export const reviewInput = z.object({
  score: wholeNumber('Score must be a whole number from 0 to 5').pipe(z.number().min(0, 'Score must be a whole number from 0 to 5').max(5, 'Score must be a whole number from 0 to 5')),
});

const flag = wholeNumber('st must be 0 or 1').pipe(z.union([z.literal(0), z.literal(1)], { error: 'st must be 0 or 1' }));

export const appSwitchInput = z.object({
  name: z.enum(['is_over_quota', 'extra_adver'], { error: 'Unknown switch' }),
  st: flag,
  exp: z.coerce.number({ error: 'exp must be a number' }).int('exp must be a number').min(0, 'exp must be a number').default(0),
  type: z.literal('param', { error: "type must be 'param'" }).default('param'),
});

export const customerClickInput = z.object({
  key: z.string({ error: 'Invalid key' }).regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'Invalid key'),
  value: z.preprocess((v) => (v == null ? '1' : String(v)), z.string().max(500, 'Value is too long')),
});
