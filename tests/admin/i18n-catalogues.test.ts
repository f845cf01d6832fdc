/// <reference types="node" />
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGE_CODES } from '../../shared/languages';

// Every catalogue carries every key of the English one, with a non-empty string, and no extras.
// Also guards against English left in another language: a value identical to English is allowed only
// for brand-like strings listed here.
const dir = join(__dirname, '../../admin/locales');
const SAME_AS_ENGLISH_ALLOWED = new Set([
  'Home',
  'OK',
  'Shopify',
  'SEOAnt',
  'channelwill',
  'PNG',
  'JPG',
  'GIF',
  'Premium',
  'KB',
  'MB',
  'GB',
  'Email',
  'E-mail',
]);

function flatten(obj: Record<string, unknown>, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object') Object.assign(out, flatten(v as Record<string, unknown>, key));
    else out[key] = String(v);
  }
  return out;
}

const load = (code: string) => flatten(JSON.parse(readFileSync(join(dir, `${code}.json`), 'utf8')));

describe('translation catalogues', () => {
  const en = load('en');

  it('there is exactly one catalogue per language code', () => {
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.replace(/\.json$/, ''));
    expect(files.sort()).toEqual([...LANGUAGE_CODES].sort());
  });

  it.each(LANGUAGE_CODES.filter((c) => c !== 'en'))('%s has every English key and nothing else', (code) => {
    const cat = load(code);
    expect(Object.keys(cat).sort()).toEqual(Object.keys(en).sort());
    for (const [key, value] of Object.entries(cat)) {
      expect(value.trim(), `${code}:${key}`).not.toBe('');
    }
  });

  it.each(LANGUAGE_CODES.filter((c) => c !== 'en'))('%s has no untranslated English sentences', (code) => {
    const cat = load(code);
    const untranslated = Object.entries(cat).filter(
      ([key, value]) => value === en[key] && /[a-z]{3,}\s+[a-z]{3,}/i.test(value) && !SAME_AS_ENGLISH_ALLOWED.has(value),
    );
    expect(untranslated.map(([k]) => k)).toEqual([]);
  });

  it.each(LANGUAGE_CODES)('%s keeps every {{placeholder}} and %%template%% token of English', (code) => {
    const cat = load(code);
    for (const [key, value] of Object.entries(en)) {
      const tokens = (value.match(/\{\{\w+\}\}|%\w+%/g) ?? []).sort();
      const theirs = (cat[key]?.match(/\{\{\w+\}\}|%\w+%/g) ?? []).sort();
      expect(theirs, `${code}:${key}`).toEqual(tokens);
    }
  });
});
