// stagedUploadsCreate, fileCreate, fileUpdate, collectionUpdate, articleUpdate.
import { randomBytes, randomUUID } from 'node:crypto';
import { addFile, cdnPath, ownedImage } from '../store/factory';
import { extensionOf, mimeForExtension } from '../store/images';
import { isoNow } from '../store/registry';
import { ensureCatalogue } from '../store/shop-state';
import type { FileRec } from '../store/types';
import { resolveSource, sourceFilename, STAGED_PREFIX } from '../sources';
import { collectionPayload, enqueueWebhook, productPayload } from '../webhooks';
import type { Ctx } from './context';
import { parseGid } from './ids';
import { articleView, collectionView, fileView } from './views';

type StagedInput = { resource: string; filename: string; mimeType: string; httpMethod?: 'POST' | 'PUT'; fileSize?: string };

export function stagedUploadsCreate(args: { input: StagedInput[] }, ctx: Ctx) {
  const userErrors: { field: string[]; message: string }[] = [];
  const stagedTargets = args.input.map((input, i) => {
    if (!input.filename) userErrors.push({ field: ['input', String(i), 'filename'], message: 'Filename is required' });
    if (!input.mimeType) userErrors.push({ field: ['input', String(i), 'mimeType'], message: 'Mime type is required' });
    const key = `tmp/${ctx.shop.shopNumber}/files/${randomUUID()}/${input.filename}`;
    ctx.emu.stagedUploads.set(key, {
      key,
      shop: ctx.shop.domain,
      filename: input.filename,
      mimeType: input.mimeType,
      blob: null,
      createdAt: Date.now(),
    });
    const base = `${ctx.emu.origin}${STAGED_PREFIX}`;
    const resourceUrl = `${base}${key}`;
    const date = new Date()
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
    const credential = `merchant-assets@shopify-tiers.iam.gserviceaccount.com/${date.slice(0, 8)}/auto/storage/goog4_request`;
    const signature = randomBytes(64).toString('hex');
    if (input.httpMethod === 'POST') {
      return {
        url: base,
        resourceUrl,
        parameters: [
          { name: 'Content-Type', value: input.mimeType },
          { name: 'success_action_status', value: '201' },
          { name: 'acl', value: 'private' },
          { name: 'key', value: key },
          { name: 'x-goog-date', value: date },
          { name: 'x-goog-credential', value: credential },
          { name: 'x-goog-algorithm', value: 'GOOG4-RSA-SHA256' },
          { name: 'x-goog-signature', value: signature },
          { name: 'policy', value: Buffer.from(JSON.stringify({ conditions: [{ key }] })).toString('base64') },
        ],
      };
    }
    const query = new URLSearchParams({
      'X-Goog-Algorithm': 'GOOG4-RSA-SHA256',
      'X-Goog-Credential': credential,
      'X-Goog-Date': date,
      'X-Goog-Expires': '604800',
      'X-Goog-SignedHeaders': 'content-type;host',
      'X-Goog-Signature': signature,
    });
    return {
      url: `${resourceUrl}?${query}`,
      resourceUrl,
      parameters: [
        { name: 'content_type', value: input.mimeType },
        { name: 'acl', value: 'private' },
      ],
    };
  });
  return { stagedTargets: userErrors.length ? null : stagedTargets, userErrors };
}

type FilesUserError = { code: string; field: string[]; message: string };

/** PROCESSING -> READY (new bytes at the same URL) or FAILED, after the shop's processing time. */
function startProcessing(ctx: Ctx, f: FileRec, source: string, newFilename: string | null): void {
  const { emu, shop } = ctx;
  f.status = 'PROCESSING';
  f.pendingSource = source;
  f.pendingFilename = newFilename;
  f.updatedAt = isoNow();
  const finish = async () => {
    const blob = await resolveSource(emu, source);
    const fault = shop.fileProcessingFaults.find((x) => x.remaining !== 0);
    if (fault && fault.remaining > 0) fault.remaining -= 1;
    f.pendingSource = null;
    f.pendingFilename = null;
    f.updatedAt = isoNow();
    if (!blob || fault) {
      f.status = 'FAILED';
      f.errors = [
        fault
          ? { code: fault.code, details: null, message: 'Image processing failed.' }
          : {
              code: 'IMAGE_DOWNLOAD_FAILURE',
              details: `Could not download ${source}`,
              message: 'Image could not be downloaded.',
            },
      ];
    } else {
      f.blob = blob;
      f.errors = [];
      f.status = 'READY';
      f.everReady = true;
      f.version = Math.max(f.version + 1, Math.floor(Date.now() / 1000));
      if (newFilename) renameFile(ctx, f, newFilename);
    }
    for (const pid of f.productIds) {
      const p = shop.products.find((x) => x.id === pid);
      if (p) {
        p.updatedAt = f.updatedAt;
        enqueueWebhook(emu, shop, 'products/update', productPayload(emu, shop, p));
      }
    }
  };
  // Caught here: a rejection inside a timer callback would be unhandled and stop the emulator.
  const timer = setTimeout(() => {
    finish().catch((err: unknown) => console.error('[emulator] file processing failed', err));
  }, shop.settings.fileProcessingMs);
  timer.unref?.();
}

function renameFile(ctx: Ctx, f: FileRec, filename: string): void {
  f.filename = filename;
  ctx.shop.takenFilenames.set(filename, f.id);
  // The old URL keeps answering (pages that still link it); the new one is what the API reports.
  ctx.emu.cdnPaths.set(cdnPath(ctx.shop, 'files', filename), { shop: ctx.shop.domain, kind: 'file', id: f.id });
}

type FileUpdateInput = {
  id: string;
  alt?: string | null;
  filename?: string | null;
  originalSource?: string | null;
  previewImageSource?: string | null;
  referencesToAdd?: string[] | null;
  referencesToRemove?: string[] | null;
};

export function fileUpdate(args: { files: FileUpdateInput[] }, ctx: Ctx) {
  ensureCatalogue(ctx.shop);
  const userErrors: FilesUserError[] = [];
  const targets: { f: FileRec; input: FileUpdateInput }[] = [];
  args.files.forEach((input, i) => {
    const id = parseGid(input.id, 'MediaImage', 'GenericFile');
    const f = id === null ? undefined : ctx.shop.files.get(id);
    if (!f)
      return userErrors.push({
        code: 'FILE_DOES_NOT_EXIST',
        field: ['files', String(i), 'id'],
        message: `File id ${input.id} does not exist.`,
      });
    if (f.status === 'PROCESSING' || f.status === 'UPLOADED')
      return userErrors.push({
        code: 'NON_READY_STATE',
        field: ['files', String(i), 'id'],
        message: 'Non-ready files cannot be updated.',
      });
    // A failed replacement must be acknowledged (fileAcknowledgeUpdateFailed) before the next update.
    if (f.status === 'FAILED' && ctx.shop.settings.refuseUpdatesOfFailedFiles)
      return userErrors.push({
        code: 'INVALID_FAILED_MEDIA_STATE',
        field: ['files', String(i), 'id'],
        message: 'File cannot be updated in a failed state.',
      });
    if (input.filename != null) {
      const sourceExt = input.originalSource ? extensionOf(sourceFilename(input.originalSource)) : extensionOf(f.filename);
      if (!/^[^/\\]+\.[a-z0-9]+$/i.test(input.filename))
        return userErrors.push({
          code: 'INVALID_FILENAME',
          field: ['files', String(i), 'filename'],
          message: 'The filename is invalid.',
        });
      if ((ctx.shop.takenFilenames.get(input.filename) ?? f.id) !== f.id) {
        return userErrors.push({
          code: 'FILENAME_ALREADY_EXISTS',
          field: ['files', String(i), 'filename'],
          message: 'The provided filename already exists.',
        });
      }
      if (extensionOf(input.filename) !== sourceExt) {
        return userErrors.push(
          input.originalSource
            ? {
                code: 'MISMATCHED_FILENAME_AND_ORIGINAL_SOURCE',
                field: ['files', String(i), 'filename'],
                message: "The filename's extension must match the extension of the original source.",
              }
            : {
                code: 'INVALID_FILENAME_EXTENSION',
                field: ['files', String(i), 'filename'],
                message: "The filename's extension must match the original file's extension.",
              },
        );
      }
    }
    targets.push({ f, input });
  });
  // Shopify applies a batch only when every entry is valid.
  if (userErrors.length) return { files: null, userErrors };
  for (const { f, input } of targets) {
    if (input.alt != null) f.alt = input.alt;
    for (const ref of input.referencesToAdd ?? []) {
      const p = ctx.shop.products.find((x) => x.id === parseGid(ref, 'Product'));
      if (p && !p.mediaIds.includes(f.id)) {
        p.mediaIds.push(f.id);
        f.productIds.push(p.id);
      }
    }
    for (const ref of input.referencesToRemove ?? []) {
      const p = ctx.shop.products.find((x) => x.id === parseGid(ref, 'Product'));
      if (p) {
        p.mediaIds = p.mediaIds.filter((m) => m !== f.id);
        f.productIds = f.productIds.filter((x) => x !== p.id);
      }
    }
    f.updatedAt = isoNow();
    if (input.originalSource) startProcessing(ctx, f, input.originalSource, input.filename ?? null);
    else {
      if (input.filename != null && input.filename !== f.filename) renameFile(ctx, f, input.filename);
      for (const pid of f.productIds) {
        const p = ctx.shop.products.find((x) => x.id === pid);
        if (p) enqueueWebhook(ctx.emu, ctx.shop, 'products/update', productPayload(ctx.emu, ctx.shop, p));
      }
    }
  }
  return { files: targets.map(({ f }) => fileView(ctx, f)), userErrors };
}

type FileCreateInput = { originalSource: string; contentType?: string | null; alt?: string | null; filename?: string | null };

export function fileCreate(args: { files: FileCreateInput[] }, ctx: Ctx) {
  const created = args.files.map((input) => {
    const filename = input.filename || sourceFilename(input.originalSource) || `file-${Date.now()}`;
    const isImage =
      input.contentType === 'IMAGE' || (!input.contentType && /^image\//.test(mimeForExtension(extensionOf(filename))));
    const f = addFile(
      ctx.emu,
      ctx.shop,
      { bytes: new Uint8Array(0), mimeType: mimeForExtension(extensionOf(filename)), width: 0, height: 0 },
      filename,
      input.alt ?? '',
    );
    f.kind = isImage ? 'MediaImage' : 'GenericFile';
    f.everReady = false;
    f.status = 'UPLOADED';
    startProcessing(ctx, f, input.originalSource, null);
    return f;
  });
  return { files: created.map((f) => fileView(ctx, f)), userErrors: [] };
}

type ImageInput = { id?: string | null; altText?: string | null; src?: string | null };

type CollectionUpdateInput = {
  id?: string;
  title?: string;
  handle?: string;
  descriptionHtml?: string;
  image?: ImageInput | null;
};

/** `collection:` (CollectionUpdateInput) since 2026-07; the deprecated `input:` (CollectionInput) is still accepted. */
export async function collectionUpdate(
  args: { collection?: CollectionUpdateInput | null; input?: CollectionUpdateInput | null },
  ctx: Ctx,
) {
  ensureCatalogue(ctx.shop);
  const input = args.collection ?? args.input;
  if (!input) return { collection: null, userErrors: [{ field: ['collection'], message: 'Collection input is required' }] };
  const c = input.id ? ctx.shop.collections.find((x) => x.id === parseGid(input.id!, 'Collection')) : undefined;
  if (!c) return { collection: null, userErrors: [{ field: ['id'], message: 'Collection does not exist' }] };
  if ('image' in input) {
    if (input.image === null) c.image = null;
    else if (input.image?.src) {
      const blob = await resolveSource(ctx.emu, input.image.src);
      if (!blob)
        return {
          collection: null,
          userErrors: [{ field: ['image', 'src'], message: 'Image upload failed: could not download image from the source URL' }],
        };
      const filename = sourceFilename(input.image.src) || `${c.handle}.jpg`;
      c.image = ownedImage(ctx.emu, ctx.shop, 'collections', c.id, blob, filename, input.image.altText ?? c.image?.alt ?? '');
      c.image.version = Math.floor(Date.now() / 1000);
    } else if (input.image && c.image && input.image.altText != null) c.image.alt = input.image.altText;
  }
  if (input.title != null) c.title = input.title;
  if (input.handle != null) c.handle = input.handle;
  if (input.descriptionHtml != null) c.descriptionHtml = input.descriptionHtml;
  c.updatedAt = isoNow();
  enqueueWebhook(ctx.emu, ctx.shop, 'collections/update', collectionPayload(ctx.emu, ctx.shop, c));
  return { collection: collectionView(ctx, c), userErrors: [] };
}

type ArticleInput = {
  title?: string;
  handle?: string;
  body?: string;
  summary?: string;
  image?: { altText?: string | null; url?: string | null } | null;
  isPublished?: boolean;
  tags?: string[];
};

export async function articleUpdate(args: { id: string; article: ArticleInput }, ctx: Ctx) {
  ensureCatalogue(ctx.shop);
  const a = ctx.shop.articles.find((x) => x.id === parseGid(args.id, 'Article'));
  if (!a) return { article: null, userErrors: [{ code: 'NOT_FOUND', field: ['id'], message: 'Article does not exist' }] };
  const input = args.article;
  if ('image' in input) {
    if (input.image === null) a.image = null;
    else if (input.image?.url) {
      const blob = await resolveSource(ctx.emu, input.image.url);
      if (!blob)
        return {
          article: null,
          userErrors: [{ code: 'UPLOAD_FAILED', field: ['article', 'image'], message: 'Image upload failed' }],
        };
      const filename = sourceFilename(input.image.url) || `${a.handle}.jpg`;
      a.image = ownedImage(ctx.emu, ctx.shop, 'articles', a.id, blob, filename, input.image.altText ?? a.image?.alt ?? '');
    } else if (input.image && a.image && input.image.altText != null) a.image.alt = input.image.altText;
  }
  if (input.title != null) a.title = input.title;
  if (input.handle != null) a.handle = input.handle;
  if (input.body != null) a.body = input.body;
  if (input.summary != null) a.summary = input.summary;
  if (input.tags != null) a.tags = input.tags;
  if (input.isPublished != null) {
    a.isPublished = input.isPublished;
    a.publishedAt = input.isPublished ? (a.publishedAt ?? isoNow()) : null;
  }
  a.updatedAt = isoNow();
  return { article: articleView(ctx, a), userErrors: [] };
}

/** Resets FAILED files to READY and clears their errors (the bytes stay the last good ones). */
export function fileAcknowledgeUpdateFailed(args: { fileIds: string[] }, ctx: Ctx) {
  const userErrors: FilesUserError[] = [];
  const files: FileRec[] = [];
  args.fileIds.forEach((id, i) => {
    const f = ctx.shop.files.get(parseGid(id, 'MediaImage', 'GenericFile') ?? -1);
    if (!f)
      userErrors.push({ code: 'FILE_DOES_NOT_EXIST', field: ['fileIds', String(i)], message: `File id ${id} does not exist.` });
    else if (f.status === 'PROCESSING' || f.status === 'UPLOADED')
      userErrors.push({ code: 'NON_READY_STATE', field: ['fileIds', String(i)], message: 'Non-ready files cannot be updated.' });
    else files.push(f);
  });
  if (userErrors.length) return { files: null, userErrors };
  for (const f of files) {
    if (f.status === 'FAILED') {
      f.status = 'READY';
      f.errors = [];
      f.updatedAt = isoNow();
    }
  }
  return { files: files.map((f) => fileView(ctx, f)), userErrors };
}
