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
    /** How the caller proved itself: an App Bridge session token (with its user) or an admin token. */
    auth: { kind: 'session'; userId: string } | { kind: 'admin'; tokenId: number; userId: string };
  };
};
