import { useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';

/**
 * Embedded in the admin, App Bridge v4 reports clicks on the ui-nav-menu links as a `shopify:navigate`
 * event whose target is the anchor; without this, the iframe would reload the whole app per click.
 * Only same-origin paths reach the router.
 */
export function useShopifyNavigate(enabled: boolean): void {
  const router = useRouter();
  useEffect(() => {
    if (!enabled) return;
    const onNavigate = (event: Event) => {
      const href = (event.target as HTMLElement | null)?.getAttribute?.('href');
      if (!href) return;
      const url = new URL(href, window.location.href);
      if (url.origin !== window.location.origin) return;
      router.history.push(`${url.pathname}${url.search}${url.hash}`);
    };
    document.addEventListener('shopify:navigate', onNavigate);
    return () => document.removeEventListener('shopify:navigate', onNavigate);
  }, [enabled, router]);
}

/** Event an in-app link (Polaris linkComponent) sends with its path; the shell hands it to the router. */
export const IN_APP_NAVIGATE = 'app:navigate';

export function useInAppLinks(): void {
  const router = useRouter();
  useEffect(() => {
    const onNavigate = (event: Event) => {
      const path = (event as CustomEvent<unknown>).detail;
      if (typeof path === 'string' && path.startsWith('/') && !path.startsWith('//')) router.history.push(path);
    };
    document.addEventListener(IN_APP_NAVIGATE, onNavigate);
    return () => document.removeEventListener(IN_APP_NAVIGATE, onNavigate);
  }, [router]);
}
