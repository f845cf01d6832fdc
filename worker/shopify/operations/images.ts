// Store images replaced in place, on top of the file, collection and article operations: product media
// with fileUpdate (same MediaImage id, URL and product association; we wait for READY, and a FAILED file
// surfaces as a retryable error); collection and article images through their mutations.
import type { ImageKind } from '../../../shared/image-settings';
import type { AdminClient } from '../graphql-client';
import { getArticle, updateArticleImage } from './articles';
import { getCollection, updateCollectionImage } from './collections';
import { gid } from './common';
import { getFileState, stageImage, updateFile, waitForFileReady } from './files';

/** Shopify's processing of a replaced file takes seconds; a minute means something is wrong: retry later. */
const READY_TIMEOUT_MS = 60_000;
/**
 * A file is never READY the instant fileUpdate answers: checking at once costs a FileStatus query
 * (3 points, about 12 % of an image's 26) for a certain PROCESSING. The first check waits this long.
 */
const FIRST_READY_CHECK_MS = 500;

/** The Shopify image to read or replace: a product's MediaImage, or a collection's or article's image. */
export type StoreImageRef = { kind: ImageKind; imgId: string; resourceId: string; src: string };

/** New bytes and/or alt text and file name, sent together in one mutation. */
export type StoreImageChange = {
  file?: { bytes: Uint8Array; mime: string; filename: string };
  alt?: string;
  fileName?: string;
};

/**
 * Where Shopify serves the image now. Collection and article replacements get a new URL; a product
 * media's file keeps its path but Files > Replace (or another app's fileUpdate) bumps its `?v=`, and a
 * CDN may still hold the bytes of an older `?v=`: so the URL is asked of Shopify, never taken from our row.
 */
export async function currentStoreImageUrl(client: AdminClient, target: StoreImageRef): Promise<string | null> {
  if (target.kind === 'product') return (await getFileState(client, target.imgId))?.url ?? null;
  if (target.kind === 'collection')
    return (await getCollection(client, gid('Collection', target.resourceId)))?.image?.url ?? null;
  return (await getArticle(client, gid('Article', target.resourceId)))?.image?.url ?? null;
}

/** Applies the change in place and resolves once Shopify serves it (file READY); the new URL if known. */
export async function replaceStoreImage(
  client: AdminClient,
  target: StoreImageRef,
  change: StoreImageChange,
): Promise<{ src: string | null }> {
  const staged = change.file ? await stageImage(client, change.file.bytes, change.file.filename, change.file.mime) : undefined;
  if (target.kind === 'product') {
    await updateFile(client, {
      id: target.imgId,
      ...(staged ? { originalSource: staged } : {}),
      ...(change.alt !== undefined ? { alt: change.alt } : {}),
      ...(change.fileName !== undefined ? { filename: change.fileName } : {}),
    });
    if (staged) await new Promise((r) => setTimeout(r, FIRST_READY_CHECK_MS));
    const ready = await waitForFileReady(client, target.imgId, { timeoutMs: READY_TIMEOUT_MS });
    return { src: ready.url };
  }
  // Collection and article images have no file name of their own: the staged file's name is it.
  const src = staged ?? target.src;
  if (target.kind === 'collection') {
    const c = await updateCollectionImage(client, {
      id: gid('Collection', target.resourceId),
      src,
      ...(change.alt !== undefined ? { altText: change.alt } : {}),
    });
    return { src: c.image?.url ?? null };
  }
  const a = await updateArticleImage(client, {
    id: gid('Article', target.resourceId),
    url: src,
    ...(change.alt !== undefined ? { altText: change.alt } : {}),
  });
  return { src: a.image?.url ?? null };
}
