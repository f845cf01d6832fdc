import { env } from 'cloudflare:test';
import { SignJWT } from 'jose';
import { createDb } from '../../worker/db/client';
import { adminTokens, shops } from '../../worker/db/schema';
import type { ShopRow } from '../../worker/db/shops';
import { randomToken, sha256Hex } from '../../worker/lib/crypto';

export const db = () => createDb(env.DB);

let counter = 0;

/** Inserts an installed shop with a fresh admin token; returns the row and ready-made auth headers. */
export async function createShop(
  overrides: Partial<typeof shops.$inferInsert> = {},
): Promise<{ shop: ShopRow; token: string; headers: Record<string, string> }> {
  counter += 1;
  const token = randomToken(32);
  const domain = overrides.domain ?? `test-shop-${Date.now().toString(36)}-${counter}.myshopify.com`;
  const shop = await db()
    .insert(shops)
    .values({ domain, name: `Test Shop ${counter}`, email: `owner${counter}@example.com`, installedAt: Date.now(), ...overrides })
    .returning()
    .get();
  // A live admin token, as POST /api/v1/adminToken would store it (admin_tokens, hash only).
  await db()
    .insert(adminTokens)
    .values({ shopId: shop.id, tokenHash: await sha256Hex(token), userId: '42', expiresAt: Date.now() + 30 * 86_400_000 });
  return { shop, token, headers: { Authorization: `Bearer ${token}` } };
}

/** A session token as App Bridge would mint it (HS256 with the app secret). */
export async function sessionToken(
  shopDomain: string,
  claims: Record<string, unknown> = {},
  secret = env.SHOPIFY_API_SECRET,
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: `https://${shopDomain}/admin`, dest: `https://${shopDomain}`, sid: crypto.randomUUID(), ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setAudience(env.SHOPIFY_API_KEY)
    .setSubject('42')
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(now + 60)
    .sign(new TextEncoder().encode(secret));
}

/** Calls the Worker in-process, as the admin would; `env` overrides some of the test bindings and variables for this call. */
export async function call(
  path: string,
  {
    env: overrides,
    ...init
  }: RequestInit & { json?: unknown; form?: Record<string, string>; env?: Partial<Record<keyof Env, unknown>> } = {},
) {
  const { app } = await import('../../worker/app');
  const headers = new Headers(init.headers);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(init.json);
  } else if (init.form) {
    headers.set('Content-Type', 'application/x-www-form-urlencoded');
    body = new URLSearchParams(init.form).toString();
  }
  const { createExecutionContext, waitOnExecutionContext } = await import('cloudflare:test');
  const ctx = createExecutionContext();
  const res = await app.request(path, { ...init, headers, body }, overrides ? { ...env, ...overrides } : env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** The Worker's fetch handler in-process, for callers that hold a Request (e.g. the emulator posting webhooks). */
export async function appFetch(req: Request): Promise<Response> {
  const { app } = await import('../../worker/app');
  const { createExecutionContext, waitOnExecutionContext } = await import('cloudflare:test');
  const ctx = createExecutionContext();
  const res = await app.fetch(req, env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** Headers with an App Bridge session token for the shop (calls an admin token may not make, e.g. changePlans). */
export async function sessionHeaders(shopDomain: string): Promise<Record<string, string>> {
  return { Authorization: `Bearer ${await sessionToken(shopDomain)}` };
}

/** The same shop as admin-token headers, as a session token (the shop is found through admin_tokens). */
export async function sessionHeadersFor(adminHeaders: Record<string, string>): Promise<Record<string, string>> {
  const token = (adminHeaders.Authorization ?? '').replace(/^Bearer\s+/i, '');
  const { findLiveAdminToken } = await import('../../worker/db/admin-tokens');
  const found = await findLiveAdminToken(db(), await sha256Hex(token), Date.now());
  if (!found) throw new Error('sessionHeadersFor: not a live admin token');
  return sessionHeaders(found.shop.domain);
}
