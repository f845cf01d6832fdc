// The product count decides between paginated reads and a bulk query. Cost: 1 point. Shopify caps the
// count at 10,000 by default, which is far above the bulk threshold, so the cap never changes the decision.
import { type AdminClient, PRODUCTS_COUNT } from '../shopify';

export async function countProducts(client: AdminClient): Promise<number> {
  const d = await client.request<{ productsCount: { count: number } | null }>(PRODUCTS_COUNT, {}, { expectedCost: 1 });
  return d.productsCount?.count ?? 0;
}
