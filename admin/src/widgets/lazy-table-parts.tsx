import type { EmptySearchResultProps, LegacyStackProps, PaginationProps, TooltipProps } from '@shopify/polaris';
import { lazy, Suspense } from 'react';

// What Polaris' IndexTable imports for options the admin's tables do not use (a heading's tooltip and
// "new" badge, the table's own pagination), loaded if one is ever rendered: the admin build points IndexTable's imports of
// Tooltip and Pagination here (admin/build/polaris-lazy-parts.ts; issue 26: first-screen JavaScript).

const PolarisTooltip = lazy(async () => ({
  default: (await import('@shopify/polaris/build/cjs/components/Tooltip/Tooltip.js')).Tooltip,
}));
const PolarisPagination = lazy(async () => ({
  default: (await import('@shopify/polaris/build/cjs/components/Pagination/Pagination.js')).Pagination,
}));

const PolarisLegacyStack = lazy(async () => ({
  default: (await import('@shopify/polaris/build/cjs/components/LegacyStack/LegacyStack.js')).LegacyStack,
}));

/** Until Polaris' Tooltip is there, its activator in the wrapper Polaris puts it in. */
export function Tooltip(props: TooltipProps) {
  const Wrapper = (props.activatorWrapper ?? 'span') as 'span';
  return (
    <Suspense fallback={<Wrapper className="">{props.children}</Wrapper>}>
      <PolarisTooltip {...props} />
    </Suspense>
  );
}

export function Pagination(props: PaginationProps) {
  return (
    <Suspense fallback={null}>
      <PolarisPagination {...props} />
    </Suspense>
  );
}

export function LegacyStack(props: LegacyStackProps) {
  return (
    <Suspense fallback={null}>
      <PolarisLegacyStack {...props} />
    </Suspense>
  );
}

const PolarisEmptySearchResult = lazy(async () => ({
  default: (await import('@shopify/polaris/build/cjs/components/EmptySearchResult/EmptySearchResult.js')).EmptySearchResult,
}));

export function EmptySearchResult(props: EmptySearchResultProps) {
  return (
    <Suspense fallback={null}>
      <PolarisEmptySearchResult {...props} />
    </Suspense>
  );
}
