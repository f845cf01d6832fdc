import type { Db } from './db/client';
import type { ShopRow } from './db/shops';
import type { Logger } from './lib/log';

/** The one Hono environment of the Worker: bindings from `wrangler types`, context values typed once. */
export type AppEnv = {
  Bindings: Env;
  Variables: {
    requestId: string;
    log: Logger;
    db: Db;
    /** Set by the authenticate middleware on every /api route; every query is scoped to it. */
    shop: ShopRow;
  };
};
