// Parts of Polaris components that the first screen never shows, loaded on use (issue 26: first-screen
// JavaScript). Polaris' IndexTable imports BulkActions statically, and with it Popover, ActionList (and
// its filter TextField) and the bulk-action menus, for a bar that shows once the merchant selects a row;
// this build step points that import at admin/src/widgets/lazy-bulk-actions.tsx, which renders
// BulkActions' markup for "nothing selected" and loads Polaris' own on use (and its imports of Tooltip, Pagination,
// LegacyStack, Badge and EmptySearchResult, for options our tables do not use, at widgets/lazy-table-parts.tsx and
// widgets/badge.tsx). Only the bundle is changed:
// the admin tests run Polaris as published, and tests/admin/screen-markup.test.tsx holds the stand-in
// to Polaris' markup.
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const INDEX_TABLE = /@shopify[\\/]polaris[\\/]build[\\/]esm[\\/]components[\\/]IndexTable[\\/]IndexTable\.js$/;
const widget = (file: string) => fileURLToPath(new URL(`../src/widgets/${file}`, import.meta.url));
const LAYOUT = /@shopify[\\/]polaris[\\/]build[\\/]esm[\\/]components[\\/]Layout[\\/]Layout\.js$/;
const REDIRECTS: { importer: RegExp; source: string; to: string }[] = [
  // Layout.AnnotatedSection (with TextContainer), a layout the admin's screens do not use.
  { importer: LAYOUT, source: './components/AnnotatedSection/AnnotatedSection.js', to: widget('lazy-annotated-section.tsx') },
  { importer: INDEX_TABLE, source: '../BulkActions/BulkActions.js', to: widget('lazy-bulk-actions.tsx') },
  // A heading's tooltip and "new" badge, and the table's own pagination, options the admin's tables do
  // not use.
  { importer: INDEX_TABLE, source: '../Tooltip/Tooltip.js', to: widget('lazy-table-parts.tsx') },
  { importer: INDEX_TABLE, source: '../Pagination/Pagination.js', to: widget('lazy-table-parts.tsx') },
  { importer: INDEX_TABLE, source: '../LegacyStack/LegacyStack.js', to: widget('lazy-table-parts.tsx') },
  { importer: INDEX_TABLE, source: '../Badge/Badge.js', to: widget('badge.tsx') },
  // The default empty state: the admin's tables pass their own (widgets/list-empty-state.tsx).
  { importer: INDEX_TABLE, source: '../EmptySearchResult/EmptySearchResult.js', to: widget('lazy-table-parts.tsx') },
];

export function polarisLazyParts(): Plugin {
  return {
    name: 'polaris-lazy-parts',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer) return null;
      const hit = REDIRECTS.find((r) => r.source === source && r.importer.test(importer));
      return hit ? hit.to : null;
    },
  };
}
