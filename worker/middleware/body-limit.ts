import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { apiError, type ApiError } from '../lib/errors';
import { BODY_LIMITS } from '../lib/limits';
import type { AppEnv } from '../types';

/** The largest body a path may carry: uploads are sized to their documented limits, webhooks to Shopify's. */
export function bodyLimitFor(path: string): number {
  if (path === '/api/v2/image-opt/uploadImagesOpt') return BODY_LIMITS.upload;
  if (path === '/webhooks' || path.startsWith('/webhooks/')) return BODY_LIMITS.webhook;
  return BODY_LIMITS.json;
}

/** 413 with the documented message where the route has one: only a watermark picture makes a settings save big. */
function tooLarge(path: string): ApiError {
  if (path === '/api/v2/image-opt/uploadImagesOpt') return apiError(413, 'server.upload.requestTooLarge');
  if (path === '/api/v2/image-opt/saveSettings' || path === '/api/v1/saveNewGuideCfg')
    return apiError(413, 'server.settings.watermarkTooLarge');
  return apiError(413, 'server.limits.bodyTooLarge');
}

/**
 * Refuses oversized bodies with 413 in the documented envelope. A declared Content-Length over the limit
 * is refused before a byte is read; a body without one (chunked) is counted while it streams and
 * refused as soon as it passes the limit, so no route ever buffers more than its limit.
 */
export const limitBody = (): MiddlewareHandler<AppEnv> =>
  async function limitBody(c, next) {
    const path = c.req.path;
    return bodyLimit({
      maxSize: bodyLimitFor(path),
      onError: () => {
        throw tooLarge(path);
      },
    })(c, next);
  };
