// The merchant-facing charge confirmation pages that a billing confirmationUrl opens. Approve or
// Decline, then Shopify sends the merchant to the app's returnUrl with ?charge_id=<id>.
import type { Hono } from 'hono';
import { decideCharge } from '../graphql/mutations-billing';
import type { Emulator } from '../store/registry';
import type { Money, RecurringLine } from '../store/types';
import { SHOP_PARAM } from './oauth';

function escape(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

const money = (m: Money) => `$${escape(m.amount)} ${escape(m.currencyCode)}`;
const every = (l: RecurringLine) => (l.interval === 'ANNUAL' ? 'every year' : 'every 30 days');

/**
 * What the merchant approves for the recurring line: with a discount, the price billed while it lasts,
 * for how many intervals, and the price after (Shopify's page shows the discounted price first).
 */
function recurringLine(l: RecurringLine): string {
  const d = l.discount;
  if (!d) return `<li>${money(l.price)} ${every(l)}</li>`;
  const off = 'percentage' in d.value ? `${Math.round(d.value.percentage * 100)}% off` : `${money(d.value.amount)} off`;
  const left = d.durationLimitInIntervals;
  if (left === null)
    return `<li data-discount><strong>${money(d.priceAfterDiscount)} ${every(l)}</strong> (${off} ${money(l.price)})</li>`;
  const intervals = left === 1 ? 'the first billing cycle' : `the first ${left} billing cycles`;
  return `<li data-discount><strong>${money(d.priceAfterDiscount)} ${every(l)}</strong> for ${intervals} (${off}), then ${money(l.price)} ${every(l)}</li>`;
}

export function mountBillingPages(app: Hono, emu: Emulator): void {
  const path = `/${SHOP_PARAM}/admin/charges/:apiKey/:chargeId/RecurringApplicationCharge/:action{confirm_recurring_application_charge|confirm_update_capped_amount}`;

  app.get(path, (c) => {
    const shop = emu.shops.get(c.req.param('shop'));
    const sub = shop?.subscriptions.find((s) => s.id === Number(c.req.param('chargeId')));
    if (!shop || !sub || !c.req.query('signature')) return c.html('<h1>Charge not found</h1>', 404);
    const isUpdate = c.req.param('action') === 'confirm_update_capped_amount';
    const lines = sub.lineItems
      .map((l) =>
        l.kind === 'recurring'
          ? recurringLine(l)
          : `<li>Usage charges up to $${escape((isUpdate && sub.pendingLineItemUpdate ? sub.pendingLineItemUpdate.cappedAmount : l.cappedAmount).amount)} per 30 days: ${escape(l.terms)}</li>`,
      )
      .join('');
    const decided = !isUpdate && sub.status !== 'PENDING';
    return c.html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Approve subscription · ${escape(shop.name)}</title>
<style>body{font-family:system-ui,sans-serif;background:#f1f1f1;margin:0}main{max-width:560px;margin:48px auto;background:#fff;border-radius:12px;padding:24px;box-shadow:0 1px 3px #0002}
button{font:inherit;padding:8px 16px;border-radius:8px;border:1px solid #8a8a8a;background:#fff;cursor:pointer}button.primary{background:#303030;color:#fff;border-color:#303030}.test{background:#ffd79d;padding:2px 8px;border-radius:8px}</style></head>
<body><main><h1>${isUpdate ? 'Approve a new usage limit' : 'Approve subscription'}</h1>
<p><strong>${escape(sub.name)}</strong> ${sub.test ? '<span class="test">Test charge: you will not be billed</span>' : ''}</p><ul>${lines}</ul>
${sub.trialDays ? `<p>${sub.trialDays}-day free trial</p>` : ''}
${decided ? `<p>This charge is ${sub.status.toLowerCase()}.</p>` : `<form method="post"><button name="decision" value="decline" type="submit">Decline</button> <button class="primary" name="decision" value="approve" type="submit">${isUpdate ? 'Approve' : 'Approve'}</button></form>`}
</main></body></html>`);
  });

  app.post(path, async (c) => {
    const shop = emu.shops.get(c.req.param('shop'));
    if (!shop) return c.html('<h1>Charge not found</h1>', 404);
    const form = await c.req.parseBody();
    const next = decideCharge({ emu, shop, bulk: false }, Number(c.req.param('chargeId')), form.decision === 'approve');
    return next ? c.redirect(next, 302) : c.html('<h1>Charge not found</h1>', 404);
  });
}
