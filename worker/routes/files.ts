import { Hono } from 'hono';
import { imageFileKey } from '../db/images';
import { apiError, NotFoundError } from '../lib/errors';
import { verifyFileLink, type FileSide } from '../files/download-links';
import { watermarkR2KeyOfName } from '../files/watermark';
import type { AppEnv } from '../types';

// /imageAddWatermark/<name> and signed /files/* downloads of originals and results. No session token
// here (they are <img> sources and download links): the unguessable name or the signature authorises.
export const filesRoutes = new Hono<AppEnv>();

function objectResponse(obj: R2ObjectBody, headers: Record<string, string>): Response {
  const h = new Headers(headers);
  obj.writeHttpMetadata(h);
  h.set('ETag', obj.httpEtag);
  h.set('X-Content-Type-Options', 'nosniff');
  return new Response(obj.body, { headers: h });
}

filesRoutes.get('/imageAddWatermark/:name', async (c) => {
  const key = watermarkR2KeyOfName(c.req.param('name'));
  const obj = key ? await c.env.BUCKET.get(key) : null;
  if (!obj) throw new NotFoundError();
  // Stored names are never reused, so the picture behind a name never changes.
  return objectResponse(obj, { 'Cache-Control': 'public, max-age=31536000, immutable' });
});

const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
};

filesRoutes.get('/files/:shopId/:imageId/:side', async (c) => {
  const shopId = Number(c.req.param('shopId'));
  const imageId = Number(c.req.param('imageId'));
  const side = c.req.param('side') as FileSide;
  const exp = Number(c.req.query('exp'));
  const sig = c.req.query('sig') ?? '';
  if (!Number.isSafeInteger(shopId) || !Number.isSafeInteger(imageId) || (side !== 'before' && side !== 'after'))
    throw new NotFoundError();
  if (!(await verifyFileLink(c.env.SHOPIFY_API_SECRET, shopId, imageId, side, exp, sig)))
    throw apiError(403, 'server.common.linkExpired');
  const file = await imageFileKey(c.get('db'), shopId, imageId, side);
  const obj = file ? await c.env.BUCKET.get(file.key) : null;
  if (!file || !obj) throw new NotFoundError('server.common.urlEmpty');
  const ext = (file.key.split('.').pop() ?? file.fileType).toLowerCase();
  const base = (file.fileName || `image-${imageId}`).replace(/\.[a-z0-9]+$/i, '').replace(/[^\w.-]+/g, '_');
  const name = `${base}-${side}.${CONTENT_TYPES[ext] ? ext : file.fileType || 'jpg'}`;
  const disposition = c.req.query('download') === '1' ? 'attachment' : 'inline';
  return objectResponse(obj, {
    'Content-Type': CONTENT_TYPES[ext] ?? CONTENT_TYPES[file.fileType] ?? 'application/octet-stream',
    'Content-Disposition': `${disposition}; filename="${name}"`,
    'Cache-Control': 'private, max-age=3600',
  });
});
