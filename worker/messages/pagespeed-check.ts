// Messages on the PageSpeed queue (`pagespeed-check`): one PageSpeed Insights check of one shop. Sent by
// worker/pagespeed/score.ts, consumed by worker/pagespeed/check-consumer.ts.

export type PagespeedCheckMessage = { type: 'check'; shopId: number; checkId: number };
