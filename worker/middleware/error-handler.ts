import type { ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { msg, verbatim } from '../../shared/messages';
import { errorBody } from '../lib/envelope';
import { ApiError } from '../lib/errors';
import { createLogger } from '../lib/log';
import { apiErrorFromShopify } from './shopify-failures';
import type { AppEnv } from '../types';

const REAUTH_URL_HEADER = 'x-shopify-api-request-failure-reauthorize-url';
/** Shopify's reauthorize header must be absolute: the admin navigates the top frame to it. */
const absoluteAppUrl = (env: Pick<Env, 'APP_URL'>, url: string) => new URL(url, env.APP_URL).toString();

/** The one place errors leave the Worker: documented envelopes, never a stack trace. */
export const onError: ErrorHandler<AppEnv> = (thrown, c) => {
  const path = c.req.path;
  const err = apiErrorFromShopify(thrown) ?? thrown;
  if (err instanceof ApiError) {
    for (const [k, v] of Object.entries(err.headers))
      c.header(k, k.toLowerCase() === REAUTH_URL_HEADER ? absoluteAppUrl(c.env, v) : v);
    // App Bridge and our admin client read the reauthorize headers from fetch answers (as shopify-app-js does).
    if (Object.keys(err.headers).some((k) => k.toLowerCase() === REAUTH_URL_HEADER))
      c.header(
        'Access-Control-Expose-Headers',
        'X-Shopify-API-Request-Failure-Reauthorize, X-Shopify-API-Request-Failure-Reauthorize-Url',
      );
    return c.json(errorBody(path, err.status, err.keyed), err.status);
  }
  if (err instanceof HTTPException) {
    // Hono's own text (e.g. a malformed form body): not ours to translate.
    return c.json(errorBody(path, err.status, verbatim(err.message || 'Request failed')), err.status);
  }
  const log = c.get('log') ?? createLogger();
  const shop = c.get('shop');
  log.error('unhandled_error', { path, shop: shop?.domain, error: err });
  return c.json(errorBody(path, 500, msg('server.common.internal')), 500);
};

export const onNotFound: NotFoundHandler<AppEnv> = (c) => c.json(errorBody(c.req.path, 404, msg('server.common.notFound')), 404);
