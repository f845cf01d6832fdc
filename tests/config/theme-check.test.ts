// Shopify's theme-check (the checks `shopify app deploy` and the theme editor apply to theme app
// extensions: Liquid, {% schema %}, locale keys, asset sizes) over storefront-script/extension.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { check } from '@shopify/theme-check-node';
import { describe, expect, it } from 'vitest';

const EXTENSION = join(import.meta.dirname, '../../storefront-script/extension');
/** theme-check's own configuration for theme app extensions (context `app`: app blocks and embeds). */
const CONFIG = 'theme-check:theme-app-extension';

const describeOffenses = (offenses: Awaited<ReturnType<typeof check>>) =>
  offenses.map((o) => `${o.check} ${o.uri.split('/extension/')[1] ?? o.uri}: ${o.message}`);

describe('theme-check over the theme app extension', () => {
  it('reports no offense', async () => {
    expect(describeOffenses(await check(EXTENSION, CONFIG))).toEqual([]);
  });

  it('does report offenses in a broken copy (the check is live, with its docs)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'theme-check-'));
    try {
      cpSync(EXTENSION, dir, { recursive: true });
      const block = join(dir, 'blocks/prefetch.liquid');
      writeFileSync(
        block,
        readFileSync(block, 'utf8')
          .replace('| asset_url }}', '| asset_urls }}')
          .replace('t:settings.limit.label', 't:settings.limit.missing'),
      );
      const found = (await check(dir, CONFIG)).map((o) => o.check).sort();
      expect(found).toEqual(expect.arrayContaining(['UnknownFilter', 'ValidSchemaTranslations']));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
