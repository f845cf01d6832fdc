// Items and their images as the catalogue sync writes them. Rows go in as one JSON parameter per
// chunk (json_each), because D1 allows only 100 bound parameters per statement: a 40,000-image shop is
// then ~200 statements instead of ~6,000.
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from './client';
import { images, items } from './schema';

/** Catalogue data types (the documents' data_type): 1 product, 2 collection, 3 blog article. 4 (upload) is never synced. */
export type CatalogueType = 1 | 2 | 3;

export const CATALOGUE_TYPES: readonly CatalogueType[] = [1, 2, 3];

export type CatalogueItemInput = {
  resourceId: string;
  title: string;
  handle: string;
  thumbnailUrl: string;
  vendor?: string;
  productType?: string;
  price?: string;
  variant?: string;
  blogId?: string | null;
  blogTitle?: string;
  resourceStatus?: string;
  published: boolean;
  resourceUpdatedAt: string | null;
};

export type CatalogueImageInput = {
  resourceId: string; // the owning item's resource id
  imgId: string;
  position: number;
  src: string;
  alt: string;
  fileName: string;
  fileType: string;
  width: number;
  height: number;
  originalSize: number;
};

/** Rows per statement; each row is ~300 bytes of JSON, well inside D1's statement and value limits. */
export const CHUNK_ROWS = 200;

function chunks<T>(rows: T[], size = CHUNK_ROWS): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

const j = (field: string) => `json_extract(j.value, '$.${field}')`;

const NOW_MS = `cast(unixepoch('subsec') * 1000 as integer)`;

// Raw D1 statements: drizzle's db.run cannot join a batch, and these are two fixed statements.
// `WHERE true` lets SQLite parse ON CONFLICT after INSERT ... SELECT.
const ITEMS_UPSERT = `
  INSERT INTO items (shop_id, data_type, resource_id, title, handle, image, vendor, product_type, price, variant, blog_id, blog_title, resource_status, is_published, is_delete, resource_updated_at, synced_at)
  SELECT ?1, ?2, ${j('rid')}, ${j('title')}, ${j('handle')}, ${j('image')}, ${j('vendor')}, ${j('ptype')}, ${j('price')}, ${j('variant')}, ${j('blog_id')}, ${j('blog_title')}, ${j('rstatus')}, ${j('pub')}, 0, ${j('rupd')}, ?3
  FROM json_each(?4) AS j WHERE true
  ON CONFLICT (shop_id, data_type, resource_id) DO UPDATE SET
    title = excluded.title, handle = excluded.handle, image = excluded.image, vendor = excluded.vendor,
    product_type = excluded.product_type, price = excluded.price, variant = excluded.variant,
    blog_id = excluded.blog_id, blog_title = excluded.blog_title, resource_status = excluded.resource_status,
    is_published = excluded.is_published, is_delete = 0,
    updated_at = CASE WHEN items.resource_updated_at IS NOT excluded.resource_updated_at OR items.is_delete = 1 THEN ${NOW_MS} ELSE items.updated_at END,
    resource_updated_at = excluded.resource_updated_at, synced_at = excluded.synced_at`;

// Type and size describe the original: once an image was processed, the job's values stand. The file name
// is Shopify's, whoever set it last (the admin shows what the store has).
// A new URL for an image whose pair we hold may be a new picture: check_served asks for a comparison of the
// served bytes (worker/optimise/served.ts). Alt text that is no longer ours was written by the merchant:
// is_edit_alt drops, so a restore leaves the merchant's newer words alone; so does a file the merchant renamed
// after our rename (is_edit_name drops).
// CROSS JOIN pins the loop order (SQLite never reorders it): each JSON row looks its item up by the
// unique index. With a plain JOIN the planner scanned every item per JSON row: 9 s for 4,000 images.
const IMAGES_UPSERT = `
  INSERT INTO images (shop_id, opt_id, img_id, position, src, alt, file_name, file_type, width, height, img_size, synced_at)
  SELECT ?1, it.id, ${j('img')}, ${j('pos')}, ${j('src')}, ${j('alt')}, ${j('fname')}, ${j('ftype')}, ${j('w')}, ${j('h')}, ${j('size')}, ?3
  FROM json_each(?4) AS j
  CROSS JOIN items AS it ON it.shop_id = ?1 AND it.data_type = ?2 AND it.resource_id = ${j('rid')}
  WHERE true
  ON CONFLICT (shop_id, img_id) DO UPDATE SET
    opt_id = excluded.opt_id, position = excluded.position, src = excluded.src, alt = excluded.alt,
    check_served = CASE WHEN images.before_file_path IS NOT NULL AND images.src IS NOT excluded.src THEN 1 ELSE images.check_served END,
    is_edit_alt = CASE WHEN images.alt IS NOT excluded.alt THEN 0 ELSE images.is_edit_alt END,
    width = excluded.width, height = excluded.height, is_delete = 0, synced_at = excluded.synced_at,
    file_name = excluded.file_name,
    is_edit_name = CASE WHEN images.is_edit_name = 1 AND images.file_name IS NOT excluded.file_name THEN 0 ELSE images.is_edit_name END,
    file_type = CASE WHEN images.status = 'pending' THEN excluded.file_type ELSE images.file_type END,
    img_size = CASE WHEN images.status = 'pending' THEN excluded.img_size ELSE images.img_size END,
    updated_at = ${NOW_MS}`;

function itemsJson(rows: CatalogueItemInput[]): string {
  return JSON.stringify(
    rows.map((r) => ({
      rid: r.resourceId,
      title: r.title,
      handle: r.handle,
      image: r.thumbnailUrl,
      vendor: r.vendor ?? '',
      ptype: r.productType ?? '',
      price: r.price ?? '',
      variant: r.variant ?? '',
      blog_id: r.blogId ?? null,
      blog_title: r.blogTitle ?? '',
      rstatus: r.resourceStatus ?? '',
      pub: r.published ? 1 : 0,
      rupd: r.resourceUpdatedAt,
    })),
  );
}

function imagesJson(rows: CatalogueImageInput[]): string {
  return JSON.stringify(
    rows.map((r) => ({
      rid: r.resourceId,
      img: r.imgId,
      pos: r.position,
      src: r.src,
      alt: r.alt,
      fname: r.fileName,
      ftype: r.fileType,
      w: r.width,
      h: r.height,
      size: r.originalSize,
    })),
  );
}

/** Upserts items, then their images (images find their item by resource id), in chunked batches. */
export async function upsertCatalogue(
  db: Db,
  shopId: number,
  dataType: CatalogueType,
  itemRows: CatalogueItemInput[],
  imageRows: CatalogueImageInput[],
  syncedAt: number,
): Promise<void> {
  const d1 = db.$client;
  const statements = [
    ...chunks(itemRows).map((c) => d1.prepare(ITEMS_UPSERT).bind(shopId, dataType, syncedAt, itemsJson(c))),
    ...chunks(imageRows).map((c) => d1.prepare(IMAGES_UPSERT).bind(shopId, dataType, syncedAt, imagesJson(c))),
  ];
  // A D1 batch is one transaction; 50 statements (10,000 rows) keep each one short.
  for (let i = 0; i < statements.length; i += 50) await d1.batch(statements.slice(i, i + 50));
}

/**
 * After a complete sync of one type: what Shopify no longer has is marked deleted (items and their
 * images). Rows seen at or after `since` stay; uploads (data_type 4) are never touched.
 */
export async function sweepUnseen(db: Db, shopId: number, dataType: CatalogueType, since: number): Promise<void> {
  const unseen = (col: typeof items.syncedAt | typeof images.syncedAt) => sql`(${col} IS NULL OR ${col} < ${since})`;
  await db.batch([
    db
      .update(items)
      .set({ deleted: true, updatedAt: Date.now() })
      .where(and(eq(items.shopId, shopId), eq(items.dataType, dataType), eq(items.deleted, false), unseen(items.syncedAt))),
    db
      .update(images)
      .set({ deleted: true, updatedAt: Date.now() })
      .where(
        and(
          eq(images.shopId, shopId),
          eq(images.deleted, false),
          unseen(images.syncedAt),
          sql`${images.itemId} IN (SELECT ${items.id} FROM ${items} WHERE ${items.shopId} = ${shopId} AND ${items.dataType} = ${dataType})`,
        ),
      ),
  ]);
}

/** After refetching one resource: its images not seen at or after `since` were removed on Shopify. */
export async function sweepItemImages(
  db: Db,
  shopId: number,
  dataType: CatalogueType,
  resourceId: string,
  since: number,
): Promise<void> {
  await db
    .update(images)
    .set({ deleted: true, updatedAt: Date.now() })
    .where(
      and(
        eq(images.shopId, shopId),
        eq(images.deleted, false),
        sql`(${images.syncedAt} IS NULL OR ${images.syncedAt} < ${since})`,
        sql`${images.itemId} IN (SELECT ${items.id} FROM ${items} WHERE ${items.shopId} = ${shopId} AND ${items.dataType} = ${dataType} AND ${items.resourceId} = ${resourceId})`,
      ),
    );
}

/** A resource deleted on Shopify: the item and its images show as Deleted. */
export async function markItemDeleted(db: Db, shopId: number, dataType: CatalogueType, resourceId: string): Promise<boolean> {
  const item = await db
    .update(items)
    .set({ deleted: true, updatedAt: Date.now() })
    .where(and(eq(items.shopId, shopId), eq(items.dataType, dataType), eq(items.resourceId, resourceId)))
    .returning({ id: items.id })
    .get();
  if (!item) return false;
  await db
    .update(images)
    .set({ deleted: true, updatedAt: Date.now() })
    .where(and(eq(images.shopId, shopId), eq(images.itemId, item.id)));
  return true;
}

/** Live catalogue images of the shop (not deleted), counted from the rows. */
export async function countLiveCatalogueImages(db: Db, shopId: number): Promise<number> {
  const row = await db
    .select({ n: sql<number>`count(*)` })
    .from(images)
    .where(
      and(
        eq(images.shopId, shopId),
        eq(images.deleted, false),
        sql`${images.itemId} IN (SELECT ${items.id} FROM ${items} WHERE ${items.shopId} = ${shopId} AND ${items.dataType} IN (1, 2, 3))`,
      ),
    )
    .get();
  return row?.n ?? 0;
}
