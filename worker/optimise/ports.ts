// What the optimisation pipeline needs from the outside world, passed in as functions so the state
// machine is tested with D1 and R2 for real and Shopify answered by the emulator or by a test double.
import type { StoredImageSettings } from '../db/image-settings';
import type { Db } from '../db/client';
import type { ShopRow } from '../db/shops';
import type { EngineResult, EngineSettings } from '../images/types';
import type { Logger } from '../lib/log';
import type { ImageKind } from '../../shared/image-settings';

/** The Shopify image an image row stands for. */
export type ImageTarget = {
  kind: ImageKind;
  /** images.img_id: the MediaImage GID for product media; the collection / article image otherwise. */
  imgId: string;
  /** items.resource_id: the numeric product, collection or article id. */
  resourceId: string;
  blogId: string | null;
  src: string;
};

/** One change on Shopify: new bytes and/or alt text and file name (sent together, one mutation). */
export type ImageUpdate = {
  file?: { bytes: Uint8Array; mime: string; filename: string };
  alt?: string;
  fileName?: string;
};

export type ShopifyImages = {
  /** Where Shopify serves the image now (collection and article replacements get a new URL). */
  currentImageUrl(shop: ShopRow, target: ImageTarget): Promise<string | null>;
  /** Applies the update in place and resolves once Shopify serves it (file READY); the new URL if known. */
  updateImage(shop: ShopRow, target: ImageTarget, update: ImageUpdate): Promise<{ src: string | null }>;
};

/** Plain functions (no `this`): `canOptimise` is handed on as a value (planDeps). */
export type QuotaPort = {
  canOptimise: (shop: ShopRow) => Promise<boolean>;
  /** Idempotent per image: ok false means the plan limit was reached (nothing charged). */
  charge: (shop: ShopRow, ref: { imageId: number; jobId: string }) => Promise<{ ok: boolean; charged: boolean }>;
};

export type PipelineDeps = {
  db: Db;
  bucket: R2Bucket;
  log: Logger;
  now: () => number;
  optimiseImage: (input: Uint8Array, settings: EngineSettings) => Promise<EngineResult>;
  /** The bytes Shopify's CDN serves at a URL (originals of catalogue images, and replacement checks). */
  fetchImage: (url: string) => Promise<Uint8Array>;
  shopify: ShopifyImages;
  quota: QuotaPort;
  loadSettings: (shopId: number) => Promise<StoredImageSettings>;
  /** Processing lease; a dead worker's image is free again after it. */
  leaseMs: number;
};
