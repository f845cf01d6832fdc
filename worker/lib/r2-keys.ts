// R2 object keys. The kind comes first so the production lifecycle rule can expire `originals/` after
// 30 days by prefix; the shop id comes second so everything of one shop can be listed and deleted
// (shop/redact) with one prefix per kind.
export const R2_KINDS = ['originals', 'results', 'uploads', 'watermarks'] as const;
export type R2Kind = (typeof R2_KINDS)[number];

export function r2Key(kind: R2Kind, shopId: number, name: string): string {
  // Names come from us (ids, hashes) or are sanitised here: no path tricks reach the bucket.
  const safe = name.replace(/[^\w.-]+/g, '_').replace(/^\.+/, '_');
  return `${kind}/${shopId}/${safe}`;
}

/** Every prefix under which a shop's objects live. */
export function shopPrefixes(shopId: number): string[] {
  return R2_KINDS.map((kind) => `${kind}/${shopId}/`);
}

/** The shop id encoded in a key, or null when the key is not one of ours. */
export function shopIdOfKey(key: string): number | null {
  const m = /^(originals|results|uploads|watermarks)\/(\d+)\//.exec(key);
  return m ? Number(m[2]) : null;
}
