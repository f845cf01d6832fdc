// Staged upload targets (multipart POST like Google Cloud Storage's form upload, or a signed PUT) and
// the CDN that serves every image's current bytes.
import { createHash } from 'node:crypto';
import type { Hono } from 'hono';
import { blobFromBytes } from '../store/images';
import type { Emulator } from '../store/registry';
import type { Blob } from '../store/types';
import { STAGED_PREFIX } from '../sources';
import { applyFault } from './faults';

function gcsError(code: string, message: string, status: number): Response {
  return new Response(`<?xml version='1.0' encoding='UTF-8'?><Error><Code>${code}</Code><Message>${message}</Message></Error>`, {
    status,
    headers: { 'Content-Type': 'application/xml; charset=UTF-8' },
  });
}

function toBlob(bytes: Uint8Array, mimeType: string): Blob {
  return blobFromBytes(bytes) ?? { bytes, mimeType, width: 0, height: 0 };
}

export function mountFiles(app: Hono, emu: Emulator): void {
  app.post(STAGED_PREFIX, async (c) => {
    let form: Record<string, string | File | (string | File)[]>;
    try {
      form = await c.req.parseBody();
    } catch {
      return gcsError('InvalidArgument', 'The request body is not a multipart form.', 400);
    }
    const key = typeof form.key === 'string' ? form.key : '';
    const staged = emu.stagedUploads.get(key);
    if (!staged)
      return gcsError('AccessDenied', 'Invalid according to Policy: Policy Condition failed: ["eq", "$key", ...]', 403);
    const fault = await applyFault(emu.shops.get(staged.shop), 'staged-upload');
    if (fault) return fault;
    const file = form.file;
    if (!(file instanceof File))
      return gcsError('InvalidArgument', 'Missing file field (it must be the last field of the form).', 400);
    staged.blob = toBlob(new Uint8Array(await file.arrayBuffer()), staged.mimeType);
    const etag = createHash('md5').update(staged.blob.bytes).digest('hex');
    if (form.success_action_status === '201') {
      const location = `${emu.origin}${STAGED_PREFIX}${key}`;
      return c.body(
        `<?xml version="1.0" encoding="UTF-8"?><PostResponse><Location>${location}</Location><Bucket>shopify-staged-uploads</Bucket><Key>${key}</Key><ETag>"${etag}"</ETag></PostResponse>`,
        201,
        {
          'Content-Type': 'application/xml',
          ETag: `"${etag}"`,
        },
      );
    }
    return c.body(null, 204, { ETag: `"${etag}"` });
  });

  app.put(`${STAGED_PREFIX}*`, async (c) => {
    const key = decodeURIComponent(c.req.path.slice(STAGED_PREFIX.length));
    const staged = emu.stagedUploads.get(key);
    if (!staged || !c.req.query('X-Goog-Signature')) return gcsError('AccessDenied', 'Access denied.', 403);
    const fault = await applyFault(emu.shops.get(staged.shop), 'staged-upload');
    if (fault) return fault;
    staged.blob = toBlob(new Uint8Array(await c.req.arrayBuffer()), c.req.header('Content-Type') ?? staged.mimeType);
    return c.body(null, 200, { ETag: `"${createHash('md5').update(staged.blob.bytes).digest('hex')}"` });
  });

  app.get('/cdn.shopify.com/*', async (c) => {
    const entry = emu.cdnPaths.get(c.req.path);
    const shop = entry ? emu.shops.get(entry.shop) : undefined;
    if (!entry || !shop) return c.text('Not Found', 404);
    const fault = await applyFault(shop, 'cdn');
    if (fault) return fault;
    let blob: Blob | undefined;
    let updated = shop.updatedAt;
    if (entry.kind === 'file') {
      const f = shop.files.get(entry.id);
      blob = f?.everReady ? f.blob : undefined;
      updated = f?.updatedAt ?? updated;
    } else if (entry.kind === 'collection') blob = shop.collections.find((x) => x.id === entry.id)?.image?.blob;
    else if (entry.kind === 'article') blob = shop.articles.find((x) => x.id === entry.id)?.image?.blob;
    if (!blob) return c.text('Not Found', 404);
    return c.body(blob.bytes as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': blob.mimeType,
      'Content-Length': String(blob.bytes.length),
      'Cache-Control': 'public, max-age=31536000',
      ETag: `"${createHash('md5').update(blob.bytes).digest('hex')}"`,
      'Last-Modified': new Date(updated).toUTCString(),
      'Access-Control-Allow-Origin': '*',
    });
  });
}
