// The pipeline's Shopify side, built on worker/shopify's typed operations: product media are replaced
// in place with fileUpdate (same MediaImage id, URL and product association; we wait for READY, and a
// FAILED file surfaces as a retryable error); collection and article images through their mutations.
import type { Db } from '../db/client';
import { getArticle, getCollection, gid, shopifyClientFor, stageImage, updateArticleImage, updateCollectionImage, updateFile, waitForFileReady } from '../shopify';
import type { TokenEnv } from '../shopify/tokens';
import type { ShopifyImages } from './ports';

/** Shopify's processing of a replaced file takes seconds; a minute means something is wrong: retry later. */
const READY_TIMEOUT_MS = 60_000;
/**
 * A file is never READY the instant fileUpdate answers: checking at once costs a FileStatus query
 * (3 points, about 12 % of an image's 26) for a certain PROCESSING. The first check waits this long.
 */
const FIRST_READY_CHECK_MS = 500;

export function shopifyImages(env: TokenEnv, db: Db): ShopifyImages {
  return {
    async currentImageUrl(shop, target) {
      if (target.kind === 'product') return target.src; // fileUpdate keeps the URL
      const client = shopifyClientFor(env, db, shop);
      if (target.kind === 'collection') return (await getCollection(client, gid('Collection', target.resourceId)))?.image?.url ?? null;
      return (await getArticle(client, gid('Article', target.resourceId)))?.image?.url ?? null;
    },
    async updateImage(shop, target, update) {
      const client = shopifyClientFor(env, db, shop);
      const staged = update.file ? await stageImage(client, update.file.bytes, update.file.filename, update.file.mime) : undefined;
      if (target.kind === 'product') {
        await updateFile(client, {
          id: target.imgId,
          ...(staged ? { originalSource: staged } : {}),
          ...(update.alt !== undefined ? { alt: update.alt } : {}),
          ...(update.fileName !== undefined ? { filename: update.fileName } : {}),
        });
        if (staged) await new Promise((r) => setTimeout(r, FIRST_READY_CHECK_MS));
        const ready = await waitForFileReady(client, target.imgId, { timeoutMs: READY_TIMEOUT_MS });
        return { src: ready.url };
      }
      // Collection and article images have no file name of their own: the staged file's name is it.
      const src = staged ?? target.src;
      if (target.kind === 'collection') {
        const c = await updateCollectionImage(client, { id: gid('Collection', target.resourceId), src, ...(update.alt !== undefined ? { altText: update.alt } : {}) });
        return { src: c.image?.url ?? null };
      }
      const a = await updateArticleImage(client, { id: gid('Article', target.resourceId), url: src, ...(update.alt !== undefined ? { altText: update.alt } : {}) });
      return { src: a.image?.url ?? null };
    },
  };
}
