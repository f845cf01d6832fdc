// Shapes shared by the catalogue operations.
export type PageInfo = { hasNextPage: boolean; endCursor: string | null };
export type Page<T> = { items: T[]; pageInfo: PageInfo };

export type ImageRef = { id: string | null; url: string; altText: string | null; width: number | null; height: number | null };

/** The numeric id at the end of a GID: gid://shopify/Product/123 -> "123". */
export function numericId(gid: string): string {
  return gid.slice(gid.lastIndexOf('/') + 1).split('?')[0] ?? gid;
}

export function gid(type: string, id: string | number): string {
  return String(id).startsWith('gid://') ? String(id) : `gid://shopify/${type}/${id}`;
}
