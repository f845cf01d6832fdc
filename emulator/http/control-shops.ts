// Control API, part 1: shops, install/uninstall, tokens, settings, faults, PageSpeed behaviour.
import { SignJWT } from 'jose';
import type { Context, Hono } from 'hono';
import { refillBucket } from '../graphql/execute';
import { billRecurringInterval, decideCharge } from '../graphql/mutations-billing';
import type { Emulator, PageSpeedRule } from '../store/registry';
import { createShop, type CreateShopOptions } from '../store/seed';
import type { FaultTarget, ShopSettings, ShopState } from '../store/shop-state';
import { enqueueWebhook, shopPayload } from '../webhooks';
import { describeShop } from './describe';
import { hostParam, installShop, issueTokens, signQuery } from './oauth';

export const CONTROL = '/__emulator';

/** A session token as App Bridge mints it for the embedded admin (HS256 with the app secret). */
export function mintSessionToken(emu: Emulator, shop: ShopState): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: `https://${shop.domain}/admin`, dest: `https://${shop.domain}`, sid: crypto.randomUUID() })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setAudience(emu.app.apiKey)
    .setSubject('42')
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(now + 60)
    .setJti(crypto.randomUUID())
    .sign(new TextEncoder().encode(emu.app.apiSecret));
}

export async function body<T>(c: Context): Promise<T> {
  const text = await c.req.text();
  return (text ? JSON.parse(text) : {}) as T;
}

export function withShop(emu: Emulator, handler: (c: Context, shop: ShopState) => Response | Promise<Response>) {
  return (c: Context) => {
    const shop = emu.shops.get(c.req.param('shop') ?? '');
    return shop ? handler(c, shop) : c.json({ error: `no shop ${c.req.param('shop')}` }, 404);
  };
}

/** Installs the app on the shop without the browser round trip; returns Shopify's token answer. */
export function installDirect(emu: Emulator, shop: ShopState, scopes: string[] = emu.app.scopes, expiring = true) {
  installShop(shop, scopes);
  return issueTokens(emu, shop, scopes, expiring);
}

export function mountControlShops(app: Hono, emu: Emulator): void {
  app.get(`${CONTROL}/health`, (c) =>
    c.json({ ok: true, origin: emu.origin, shops: emu.shops.size, app: { apiKey: emu.app.apiKey, appUrl: emu.app.appUrl } }),
  );

  app.get(`${CONTROL}/shops`, (c) => c.json([...emu.shops.values()].map((s) => describeShop(emu, s))));

  app.post(`${CONTROL}/shops`, async (c) => {
    const opts = await body<CreateShopOptions & { install?: boolean; scopes?: string[]; settings?: Partial<ShopSettings> }>(c);
    if (opts.domain && !/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/.test(opts.domain))
      return c.json({ error: 'domain must be <name>.myshopify.com' }, 400);
    let shop: ShopState;
    try {
      shop = createShop(emu, opts);
    } catch (e) {
      return c.json({ error: (e as Error).message }, 409);
    }
    Object.assign(shop.settings, opts.settings ?? {});
    shop.bucket.available = shop.settings.maximumAvailable;
    const tokens = opts.install ? installDirect(emu, shop, opts.scopes) : null;
    return c.json({ ...describeShop(emu, shop), tokens }, 201);
  });

  app.get(
    `${CONTROL}/shops/:shop`,
    withShop(emu, (c, shop) => (refillBucket(shop), c.json(describeShop(emu, shop)))),
  );
  app.delete(
    `${CONTROL}/shops/:shop`,
    withShop(emu, (c, shop) => (emu.shops.delete(shop.domain), c.json({ deleted: shop.domain }))),
  );

  app.patch(
    `${CONTROL}/shops/:shop`,
    withShop(emu, async (c, shop) => {
      const b =
        await body<
          Partial<
            Pick<ShopState, 'name' | 'email' | 'ownerName' | 'currencyCode' | 'locales' | 'planName' | 'partnerDevelopment'>
          >
        >(c);
      Object.assign(shop, b);
      shop.updatedAt = new Date().toISOString();
      enqueueWebhook(emu, shop, 'shop/update', shopPayload(shop));
      return c.json(describeShop(emu, shop));
    }),
  );

  app.patch(
    `${CONTROL}/shops/:shop/settings`,
    withShop(emu, async (c, shop) => {
      Object.assign(shop.settings, await body<Partial<ShopSettings>>(c));
      refillBucket(shop);
      shop.bucket.available = Math.min(shop.bucket.available, shop.settings.maximumAvailable);
      return c.json(describeShop(emu, shop));
    }),
  );

  app.post(
    `${CONTROL}/shops/:shop/install`,
    withShop(emu, async (c, shop) => {
      const b = await body<{ scopes?: string[]; expiring?: boolean }>(c);
      return c.json(installDirect(emu, shop, b.scopes, b.expiring ?? true));
    }),
  );

  app.post(
    `${CONTROL}/shops/:shop/uninstall`,
    withShop(emu, (c, shop) => {
      const d = enqueueWebhook(emu, shop, 'app/uninstalled', shopPayload(shop));
      shop.installed = false;
      for (const [t, v] of emu.accessTokens) if (v.shop === shop.domain) emu.accessTokens.delete(t);
      for (const [t, v] of emu.refreshTokens) if (v.shop === shop.domain) emu.refreshTokens.delete(t);
      for (const s of shop.subscriptions) if (s.status === 'ACTIVE') s.status = 'CANCELLED';
      return c.json({ uninstalled: shop.domain, webhook: d });
    }),
  );

  app.post(
    `${CONTROL}/shops/:shop/tokens/expire`,
    withShop(emu, (c, shop) => {
      let n = 0;
      for (const t of emu.accessTokens.values()) {
        if (t.shop !== shop.domain) continue;
        t.expiresAt = Date.now() - 1000;
        n++;
      }
      return c.json({ expired: n });
    }),
  );

  app.post(
    `${CONTROL}/shops/:shop/faults`,
    withShop(emu, async (c, shop) => {
      const b = await body<{ target?: FaultTarget; status?: number; times?: number; delayMs?: number; retryAfter?: number }>(c);
      const fault = {
        id: emu.nextId(),
        target: b.target ?? 'graphql',
        status: b.status ?? 0,
        delayMs: b.delayMs ?? 0,
        retryAfter: b.retryAfter ?? null,
        remaining: b.times ?? 1,
      };
      shop.httpFaults.push(fault);
      return c.json(fault, 201);
    }),
  );
  app.post(
    `${CONTROL}/shops/:shop/faults/file-processing`,
    withShop(emu, async (c, shop) => {
      const b = await body<{ times?: number; code?: string }>(c);
      const fault = { remaining: b.times ?? 1, code: b.code ?? 'IMAGE_PROCESSING_FAILURE' };
      shop.fileProcessingFaults.push(fault);
      return c.json(fault, 201);
    }),
  );
  app.delete(
    `${CONTROL}/shops/:shop/faults`,
    withShop(emu, (c, shop) => ((shop.httpFaults = []), (shop.fileProcessingFaults = []), c.json({ cleared: true }))),
  );

  app.get(
    `${CONTROL}/shops/:shop/billing`,
    withShop(emu, (c, shop) =>
      c.json({ subscriptions: shop.subscriptions, usageRecords: shop.usageRecords, recurringCharges: shop.recurringCharges }),
    ),
  );
  // A billing cycle passes: each ACTIVE subscription's next interval is billed (discounted while its
  // discount has intervals left) and its period moves on by 30 days.
  app.post(
    `${CONTROL}/shops/:shop/billing/next-cycle`,
    withShop(emu, (c, shop) => {
      const billed = [];
      for (const sub of shop.subscriptions) {
        if (sub.status !== 'ACTIVE' || !sub.currentPeriodEnd) continue;
        const start = sub.currentPeriodEnd;
        const end = new Date(Date.parse(start) + 30 * 86_400_000).toISOString();
        sub.currentPeriodEnd = end;
        const charge = billRecurringInterval(shop, sub, start, end, emu.nextId());
        if (charge) billed.push(charge);
      }
      return c.json({ recurringCharges: billed });
    }),
  );
  app.post(
    `${CONTROL}/shops/:shop/billing/:chargeId/:decision{approve|decline}`,
    withShop(emu, (c, shop) => {
      const next = decideCharge(
        { emu, shop, bulk: false },
        Number(c.req.param('chargeId')),
        c.req.param('decision') === 'approve',
      );
      return next ? c.json({ returnUrl: next }) : c.json({ error: 'no such charge' }, 404);
    }),
  );

  // What Shopify's admin opens when the merchant launches the app: the app URL with a signed query.
  // `idToken=1`: the embedded launch also carries a session token (`id_token`), as Shopify's admin adds it.
  app.get(
    `${CONTROL}/shops/:shop/launch-url`,
    withShop(emu, async (c, shop) => {
      const params: Record<string, string> = {
        embedded: '1',
        host: hostParam(shop.domain),
        locale: shop.locales[0] ?? 'en',
        session: crypto.randomUUID().replace(/-/g, ''),
        shop: shop.domain,
        timestamp: String(Math.floor(Date.now() / 1000)),
      };
      if (c.req.query('idToken') === '1') params.id_token = await mintSessionToken(emu, shop);
      params.hmac = signQuery(emu.app.apiSecret, params);
      return c.json({ url: `${emu.app.appUrl}${c.req.query('path') ?? '/shopify/app'}?${new URLSearchParams(params)}`, params });
    }),
  );

  // A session token as App Bridge mints it for the embedded admin (HS256 with the app secret).
  app.post(
    `${CONTROL}/shops/:shop/session-token`,
    withShop(emu, async (c, shop) => c.json({ token: await mintSessionToken(emu, shop) })),
  );

  app.put(`${CONTROL}/pagespeed`, async (c) => {
    const b = await body<PageSpeedRule & { host?: string }>(c);
    const { host = '*', ...rule } = b;
    emu.pageSpeed.set(host, { ...rule, mode: rule.mode ?? 'ok' });
    return c.json(Object.fromEntries(emu.pageSpeed));
  });
  app.delete(`${CONTROL}/pagespeed`, (c) => (emu.pageSpeed.clear(), (emu.pageSpeedCalls.length = 0), c.json({ cleared: true })));
  app.get(`${CONTROL}/pagespeed/calls`, (c) => c.json(emu.pageSpeedCalls));
}
