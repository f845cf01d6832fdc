// Fault injection at the HTTP edge: the next N matching requests of a shop answer with an HTTP error
// and/or arrive late, exactly as Shopify's 429 / 5xx / slow answers look to a client.
import type { FaultTarget, ShopState } from '../store/shop-state';

const BODIES: Record<number, { type: string; body: string }> = {
  429: {
    type: 'application/json',
    body: JSON.stringify({
      errors: 'Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service.',
    }),
  },
  500: { type: 'application/json', body: JSON.stringify({ errors: 'Internal Server Error' }) },
  502: {
    type: 'text/html',
    body: '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>',
  },
  503: { type: 'application/json', body: JSON.stringify({ errors: 'Unavailable Shop' }) },
  504: {
    type: 'text/html',
    body: '<html><head><title>504 Gateway Time-out</title></head><body><h1>504 Gateway Time-out</h1></body></html>',
  },
};

/** Applies the first matching fault (consuming one use); returns the error Response, or null to go on. */
export async function applyFault(shop: ShopState | undefined, target: Exclude<FaultTarget, 'all'>): Promise<Response | null> {
  if (!shop) return null;
  const fault = shop.httpFaults.find((f) => (f.target === target || f.target === 'all') && f.remaining !== 0);
  if (!fault) return null;
  if (fault.remaining > 0) fault.remaining -= 1;
  shop.httpFaults = shop.httpFaults.filter((f) => f.remaining !== 0);
  shop.stats.injectedFaults += 1;
  if (fault.delayMs > 0) await new Promise((r) => setTimeout(r, fault.delayMs));
  if (!fault.status) return null; // a slow answer, otherwise normal
  const shape = BODIES[fault.status] ?? { type: 'application/json', body: JSON.stringify({ errors: `HTTP ${fault.status}` }) };
  const headers: Record<string, string> = { 'Content-Type': shape.type, 'X-Request-Id': crypto.randomUUID() };
  if (fault.status === 429) headers['Retry-After'] = (fault.retryAfter ?? 2).toFixed(1);
  return new Response(shape.body, { status: fault.status, headers });
}
