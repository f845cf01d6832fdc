// Resolves the URLs apps hand to Shopify (staged upload resourceUrls, CDN URLs, any http URL) to bytes.
import { blobFromBytes } from './store/images';
import type { Emulator } from './store/registry';
import type { Blob } from './store/types';

export const STAGED_PREFIX = '/shopify-staged-uploads/';

function currentBlob(emu: Emulator, path: string): Blob | null {
  const entry = emu.cdnPaths.get(path);
  if (!entry) return null;
  const shop = emu.shops.get(entry.shop);
  if (!shop) return null;
  if (entry.kind === 'file') return shop.files.get(entry.id)?.blob ?? null;
  if (entry.kind === 'collection') return shop.collections.find((c) => c.id === entry.id)?.image?.blob ?? null;
  if (entry.kind === 'article') return shop.articles.find((a) => a.id === entry.id)?.image?.blob ?? null;
  return null;
}

export async function resolveSource(emu: Emulator, source: string): Promise<Blob | null> {
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    return null;
  }
  if (url.origin === new URL(emu.origin).origin) {
    if (url.pathname.startsWith(STAGED_PREFIX))
      return emu.stagedUploads.get(decodeURIComponent(url.pathname.slice(STAGED_PREFIX.length)))?.blob ?? null;
    return currentBlob(emu, url.pathname);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
    if (!res.ok) return null;
    return blobFromBytes(new Uint8Array(await res.arrayBuffer()));
  } catch {
    return null;
  }
}

/** The filename a source URL names (its last path segment). */
export function sourceFilename(source: string): string {
  try {
    const parts = new URL(source).pathname.split('/');
    return decodeURIComponent(parts[parts.length - 1] ?? '');
  } catch {
    return '';
  }
}
