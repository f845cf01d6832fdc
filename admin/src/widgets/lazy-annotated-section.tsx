import type { AnnotatedSectionProps } from '@shopify/polaris/build/ts/src/components/Layout/components/AnnotatedSection/AnnotatedSection';
import { lazy, Suspense } from 'react';

// Polaris' Layout imports Layout.AnnotatedSection (with TextContainer), a layout the admin's screens do
// not use: the admin build points that import here (admin/build/polaris-lazy-parts.ts; issue 26), and it
// is fetched if one is ever rendered.

const PolarisAnnotatedSection = lazy(async () => ({
  default: (await import('@shopify/polaris/build/cjs/components/Layout/components/AnnotatedSection/AnnotatedSection.js'))
    .AnnotatedSection,
}));

/** Polaris' Layout.AnnotatedSection, a layout the screens do not use (Layout's import of it points here). */
export function AnnotatedSection(props: AnnotatedSectionProps) {
  return (
    <Suspense fallback={null}>
      <PolarisAnnotatedSection {...props} />
    </Suspense>
  );
}
