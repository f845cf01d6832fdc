import type { MiddlewareHandler } from 'hono';
import { createDb } from '../db/client';
import { createLogger } from '../lib/log';
import type { AppEnv } from '../types';

/**
 * Gives every request an id (kept from X-Request-Id when the caller sent a sane one), a logger that
 * carries it, and the database handle. Logs one line per request with status and duration.
 */
export const requestContext = ({ headerName = 'X-Request-Id' }: { headerName?: string } = {}): MiddlewareHandler<AppEnv> =>
  async function requestContext(c, next) {
    const incoming = c.req.header(headerName);
    const requestId = incoming && /^[\w-]{8,64}$/.test(incoming) ? incoming : crypto.randomUUID();
    const log = createLogger({ requestId });
    c.set('requestId', requestId);
    c.set('log', log);
    c.set('db', createDb(c.env.DB));
    const started = Date.now();
    await next();
    c.header(headerName, requestId);
    log.info('request', { method: c.req.method, path: c.req.path, status: c.res.status, ms: Date.now() - started });
  };
