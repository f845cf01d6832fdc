import { Hono } from 'hono';
import { z } from 'zod';
import { raiseOverageCap } from '../billing/overage';
import { pricingData } from '../billing/pricing';
import { newUserOffer } from '../billing/terms';
import { verifyBillingReturn } from '../billing/return-url';
import { BILLING_RETURN_PATH, changePlan, handleBillingReturn } from '../billing/subscription';
import { v1 } from '../lib/envelope';
import { apiError, ValidationError } from '../lib/errors';
import { parseInput, readBody } from '../lib/validate';
import { requireSessionToken } from '../middleware/authenticate';
import { shopBaseUrl } from '../shopify/api-version';
import { isShopDomain } from '../auth/session-token';
import type { AppEnv } from '../types';
import type { CapRaise, PlanChange, PricingData } from '../../shared/api/billing';
import type { V1Envelope } from '../../shared/api/envelope';
import { wholeNumber } from './account-inputs';

// /api/v1 getPricingPlans, changePlans and raiseOverageCap; and Shopify's billing return URL.
export const billingRoutes = new Hono<AppEnv>();

billingRoutes.get('/api/v1/getPricingPlans', async (c) =>
  v1<PricingData>(c, await pricingData(c.get('db'), c.get('shop'), newUserOffer(c.env))),
);

const changePlansInput = z.object({ newLevel: wholeNumber('server.billing.invalidPlanLevel') });

/** Upgrade: {code:'200', url: Shopify's confirmation URL}. Downgrade to free: {code:'200', url: ''}. */
// Plan changes spend the merchant's money: a session token (the merchant in Shopify's admin) only.
billingRoutes.post('/api/v1/changePlans', requireSessionToken(), async (c) => {
  const { newLevel } = parseInput(changePlansInput, await readBody(c));
  const result = await changePlan({ env: c.env, db: c.get('db'), log: c.get('log') }, c.get('shop'), newLevel);
  return c.json({
    code: '200',
    msg: 'success',
    url: result.url ?? '',
    data: { url: result.url ?? '', level: result.planLevel },
  } satisfies V1Envelope<PlanChange> & { url: string });
});

const raiseCapInput = z.object({ images: z.coerce.number().int().positive().optional() });

/** The cap would be exceeded: ask Shopify for a higher cap; the merchant approves at `url`. */
// A higher cap lets Shopify bill more: like a plan change, a session token only.
billingRoutes.post('/api/v1/raiseOverageCap', requireSessionToken(), async (c) => {
  const { images } = parseInput(raiseCapInput, await readBody(c));
  const result = await raiseOverageCap({ env: c.env, db: c.get('db'), log: c.get('log') }, c.get('shop'), images);
  return c.json({
    code: '200',
    msg: 'success',
    url: result.url,
    data: { url: result.url, capped_amount: result.cappedAmountCents / 100 },
  } satisfies V1Envelope<CapRaise> & { url: string });
});

/**
 * Shopify sends the merchant's browser here after the approval page (no session token: it is a top-level
 * navigation). Only a URL this app signed (shop, kind, expiry) is acted on; a forged one changes nothing
 * and asks Shopify nothing. The level changes only if Shopify reports the subscription ACTIVE; then the
 * merchant goes back to the app's pricing page inside the Shopify admin, which shows the result.
 */
billingRoutes.get(BILLING_RETURN_PATH, async (c) => {
  if (!isShopDomain((c.req.query('shop') ?? '').trim().toLowerCase())) throw new ValidationError('server.auth.invalidShopDomain');
  const signed = await verifyBillingReturn(c.env, new URL(c.req.url).searchParams);
  if (!signed) throw apiError(401, 'server.billing.invalidReturn');
  // Act on the shop the app signed, not on a re-spelling of the query.
  const shopDomain = signed.shop;
  const outcome = await handleBillingReturn(
    { env: c.env, db: c.get('db'), log: c.get('log') },
    shopDomain,
    c.req.query('charge_id'),
  );
  if (!outcome) throw new ValidationError('server.auth.shopNotInstalled');
  const target = new URL(`${shopBaseUrl(c.env, shopDomain)}/admin/apps/${c.env.SHOPIFY_API_KEY}/pricing`);
  target.searchParams.set('billing', outcome.approved ? 'approved' : 'declined');
  target.searchParams.set('kind', outcome.kind);
  return c.redirect(target.toString(), 302);
});
