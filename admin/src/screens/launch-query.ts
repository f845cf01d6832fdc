/**
 * Shopify's launch query (application_url is the app root): it carries shop and its HMAC. Apart from the
 * launch screen so the route table can ask without loading that screen's chunk.
 */
export const isLaunchQuery = (search: string) => {
  const q = new URLSearchParams(search);
  return q.has('shop') && q.has('hmac');
};
