/// <reference types="node" />
// The Worker's errors carry a key of shared/messages.ts; the admin translates it from admin/locales. Every
// key must read in all 21 languages with the same {{params}}, and the English must be the documented text.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGE_CODES } from '../../shared/languages';
import { english, MESSAGES, msg, type MessageKey } from '../../shared/messages';
import { messageOf } from '../../admin/src/api/client';
import { errorText, loadServerTexts } from '../../admin/src/api/error-text';
import { initI18n } from '../../admin/src/i18n';
import { planLimitOf } from '../../admin/src/pricing/plan-limit-dialog';

const LOCALES = join(__dirname, '../../admin/locales');
const catalogues = Object.fromEntries(
  readdirSync(LOCALES)
    .filter((f) => f.endsWith('.json'))
    .map((f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(join(LOCALES, f), 'utf8')) as Record<string, unknown>]),
);
const lookup = (cat: Record<string, unknown>, key: string): unknown =>
  key
    .split('.')
    .reduce<unknown>((node, p) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[p] : undefined), cat);
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
const serverKeys = (node: unknown, prefix = 'server'): string[] =>
  node && typeof node === 'object'
    ? Object.entries(node).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}.${k}`] : serverKeys(v, `${prefix}.${k}`)))
    : [];
const KEYS = Object.keys(MESSAGES) as MessageKey[];

describe('the shared catalogue in all 21 languages', () => {
  it('has one catalogue file per language', () => {
    expect(Object.keys(catalogues).sort()).toEqual([...LANGUAGE_CODES].sort());
  });

  it.each(Object.keys(catalogues))('%s: every key, with the same {{params}}, and nothing else under server', (code) => {
    const cat = catalogues[code]!;
    const problems = KEYS.flatMap((key) => {
      const text = lookup(cat, key);
      if (typeof text !== 'string' || text.trim() === '') return [`${key}: missing`];
      const same = JSON.stringify(placeholders(text)) === JSON.stringify(placeholders(MESSAGES[key]));
      return same ? [] : [`${key}: params ${placeholders(text).join(',')} instead of ${placeholders(MESSAGES[key]).join(',')}`];
    });
    expect(problems).toEqual([]);
    // The server section is exactly the catalogue: no key the Worker cannot send.
    expect(serverKeys(cat.server).sort()).toEqual([...KEYS].sort());
  });

  it('en reads the documented English of shared/messages.ts byte for byte', () => {
    expect(KEYS.filter((key) => lookup(catalogues.en!, key) !== MESSAGES[key])).toEqual([]);
  });

  it('other languages translate (only the verbatim carrier reads the same everywhere)', () => {
    for (const [code, cat] of Object.entries(catalogues)) {
      if (code === 'en') continue;
      const untranslated = KEYS.filter((key) => key !== 'server.common.verbatim' && lookup(cat, key) === MESSAGES[key]);
      // Field names such as pageSize or st stay; whole English sentences must not.
      expect(
        untranslated.filter((key) => MESSAGES[key].split(' ').length > 3),
        code,
      ).toEqual([]);
    }
  });
});

describe('errorText: the admin shows an error from its key', () => {
  beforeAll(async () => {
    initI18n('en');
    await i18next.changeLanguage('en');
    await loadServerTexts(); // as the transport does with the first keyed answer (tests/admin/server-texts.test.ts)
  });
  afterEach(() => void i18next.changeLanguage('en'));

  it('translates a key with its params', async () => {
    await i18next.changeLanguage('ja');
    expect(
      errorText(
        {
          ack: 0,
          message: english('server.optimise.planLimit', { count: 37 }),
          ...msg('server.optimise.planLimit', { count: 37 }),
        },
        'x',
      ),
    ).toBe('最適化できる画像が 37 件あります。');
    await i18next.changeLanguage('ge');
    expect(
      errorText({ code: '401', msg: 'Please authorise the app again to continue.', ...msg('server.auth.reauthorise') }, 'x'),
    ).toBe('Bitte autorisieren Sie die App erneut, um fortzufahren.');
    expect(
      errorText(
        { ack: 0, message: 'Invalid value for page_type', ...msg('server.common.invalidValueFor', { field: 'page_type' }) },
        'x',
      ),
    ).toBe('Ungültiger Wert für page_type');
  });

  it('translates every file of a refused upload, names kept as sent (no HTML escaping)', async () => {
    const list = [
      msg('server.upload.notSupported', { name: 'my cat & dog.webp' }),
      msg('server.upload.tooLarge', { name: 'big.png' }),
    ];
    const body = { ack: 0, message: english('server.upload.rejected', { list }), ...msg('server.upload.rejected', { list }) };
    expect(errorText(body, 'x')).toBe(body.message);
    await i18next.changeLanguage('ge');
    expect(errorText(body, 'x')).toBe(
      'Die folgenden Bilder konnten nicht hochgeladen werden: my cat & dog.webp wird nicht unterstützt. Der Dateityp muss .jpg oder .png sein. big.png ist zu groß. Jedes Bild darf höchstens 5 MB groß sein.',
    );
  });

  it('shows a text we did not write as sent, in every language', async () => {
    await i18next.changeLanguage('ja');
    expect(
      errorText(
        {
          ack: 0,
          message: 'Price must be greater than 0',
          message_key: 'server.common.verbatim',
          params: { text: 'Price must be greater than 0' },
        },
        'x',
      ),
    ).toBe('Price must be greater than 0');
  });

  it('falls back to the English message when the key is missing or unknown, then to the fallback', async () => {
    await i18next.changeLanguage('ja');
    expect(errorText({ ack: 0, message: 'Something new' }, 'x')).toBe('Something new');
    expect(errorText({ code: '400', msg: 'Something newer', message_key: 'server.not.a.key', params: {} }, 'x')).toBe(
      'Something newer',
    );
    expect(errorText({ ack: 0 }, 'fallback')).toBe('fallback');
    expect(errorText(null, 'fallback')).toBe('fallback');
    expect(messageOf({ ack: 0, message: 'The input cannot be empty!', ...msg('server.settings.inputEmpty') }, 'x')).toBe(
      i18next.t('server.settings.inputEmpty'),
    );
    expect(i18next.t('server.settings.inputEmpty')).not.toBe('The input cannot be empty!');
  });

  it('a plan-limit refusal is known by its key and count', () => {
    const body = {
      ack: 0,
      message: english('server.optimise.planLimit', { count: 7 }),
      ...msg('server.optimise.planLimit', { count: 7 }),
    };
    expect(planLimitOf(body)).toBe(7);
    expect(
      planLimitOf({ ack: 0, message: 'Upload at most 20 images at a time.', ...msg('server.upload.tooMany', { count: 20 }) }),
    ).toBeNull();
  });
});
