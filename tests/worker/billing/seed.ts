import { env } from 'cloudflare:test';

/** Inserts `count` ledger rows for a period in one statement (charging thousands one by one is slow). */
export async function seedLedger(
  shopId: number,
  periodStart: number,
  count: number,
  opts: { overage?: boolean; prefix?: string } = {},
) {
  await env.DB.prepare(
    `insert into usage_ledger (shop_id, charge_key, period_start, is_overage)
     with recursive n(i) as (select 1 union all select i + 1 from n where i < ?)
     select ?, ? || i, ?, ? from n`,
  )
    .bind(count, shopId, `${opts.prefix ?? 'seed'}:`, periodStart, opts.overage ? 1 : 0)
    .run();
}
