// admin/build/polaris-locale-trim.ts (issue 26): Polaris' catalogues keep the keys the admin's Polaris can
// show, and lose the others.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { polarisKeysInUse, trimCatalogue, type Catalogue } from '../../admin/build/polaris-locale-trim';

const ROOT = join(import.meta.dirname, '../..');
const ESM = join(ROOT, 'node_modules/@shopify/polaris/build/esm');
const en = JSON.parse(readFileSync(join(ROOT, 'node_modules/@shopify/polaris/locales/en.json'), 'utf8')) as Catalogue;
const get = (catalogue: unknown, key: string) =>
  key.split('.').reduce<unknown>((node, k) => (node as Record<string, unknown> | undefined)?.[k], catalogue);

describe('Polaris catalogue trim', () => {
  const inUse = polarisKeysInUse(join(ROOT, 'admin/src'), ESM);
  const trimmed = trimCatalogue(en, inUse);

  it('keeps what the shell and the screens show', () => {
    for (const key of [
      'Polaris.Page.Header.pageReadyAccessibilityLabel', // the shell's page header
      'Polaris.Frame.skipToContent', // the shell's frame
      'Polaris.Banner.dismissButton',
      'Polaris.Pagination.next', // widgets/pagination.tsx
      'Polaris.ActionMenu.Actions.moreActions', // widgets/header-actions.tsx
      'Polaris.Common.clear', // widgets/search-field.tsx
      'Polaris.IndexTable.selectAllLabel',
      'Polaris.Modal.iFrameTitle',
    ])
      expect(get(trimmed, key), key).toBe(get(en, key));
    // widgets/badge.tsx builds its key at run time: the whole branch stays.
    expect(get(trimmed, 'Polaris.Badge.TONE_LABELS')).toEqual(get(en, 'Polaris.Badge.TONE_LABELS'));
  });

  it('drops the components the admin never loads, and is much smaller', () => {
    for (const component of ['DatePicker', 'Filters', 'TopBar', 'DataTable', 'ResourceList.sortingLabel'])
      expect(get(trimmed, `Polaris.${component}`), component).toBeUndefined();
    expect(JSON.stringify(trimmed).length).toBeLessThan(JSON.stringify(en).length / 2);
  });

  it('keeps a branch whose keys are built at run time, and drops empty branches', () => {
    const catalogue = { Polaris: { A: { months: { january: 'Jan' }, x: 'x' }, B: { y: 'y' }, C: { z: 'z' } } };
    expect(trimCatalogue(catalogue, { keys: new Set(['Polaris.B.y']), branches: new Set(['Polaris.A.months']) })).toEqual({
      Polaris: { A: { months: { january: 'Jan' } }, B: { y: 'y' } },
    });
  });
});
