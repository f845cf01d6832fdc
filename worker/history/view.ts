// The documented shapes of the history, detail and statistics calls, built
// from the item and image rows.
import { imageStatusOf } from '../../shared/image-status';
import { DATA_TYPES } from '../../shared/api/vocabulary';
import { isMessageKey, keyedFromEnglish, type KeyedMessage } from '../../shared/messages';
import { publicSettings } from '../../shared/image-settings';
import { quotaStatus } from '../billing/quota';
import type { Db } from '../db/client';
import { bit } from '../lib/bit';
import { getImageSettings } from '../db/image-settings';
import { findItem, imageFiguresOf, listHistoryItems, type HistoryItemRow, type ItemImageFigures } from '../db/items';
import { pageItemImages, shopImageTotals, type ImageRow } from '../db/images';
import type { ShopRow } from '../db/shops';
import { signedFileUrl } from '../files/download-links';
import type {
  HistoryPage,
  HistoryRow,
  ImageRow as ImageRowView,
  ImgOptTotal,
  ItemImagesPage,
  Paged,
} from '../../shared/api/image-opt';

export type { Paged };

/** Percent saved with two decimals (ratios shown as percentages with 2 decimals). */
export function savedPercent(original: number, compressed: number): number {
  if (original <= 0) return 0;
  return Math.round(((original - compressed) / original) * 10000) / 100;
}

/**
 * The history statuses of the catalogue (page-speed-and-app.md section 4): Finished, Implement (in
 * progress), Monitor... (monitored continuously), Restored, Deleted. A finished store item is monitored
 * while automatic mode is on: a changed or new image of it is optimised without the merchant.
 */
function historyStatus(row: HistoryItemRow, automatic: boolean): string {
  if (row.deleted) return 'deleted';
  // Nothing optimised now (only failed images, or a picture changed in Shopify): the admin's "Not optimized".
  const status =
    row.status || (row.optStatus === 3 ? 'restored' : row.optStatus === 1 ? 'implement' : row.optStatus === 2 ? 'finished' : '');
  return status === 'finished' && automatic && row.dataType !== DATA_TYPES.upload ? 'monitor' : status;
}

/**
 * The thumbnail of a history row: the item's Shopify image, or for an upload (which lives only in R2)
 * a signed link to its result, else its original, like the compare view's; none once both are gone.
 */
async function thumbnailOf(env: FileEnv | null, shopId: number, r: HistoryItemRow, f: ItemImageFigures | undefined, now: number) {
  if (r.thumbnailUrl || !env || !f?.firstImageSide) return r.thumbnailUrl;
  return signedFileUrl(env, shopId, f.firstImageId, f.firstImageSide, now);
}

export async function historyPage(
  db: Db,
  shopId: number,
  q: { dataType: number; pageType: 0 | 1; title: string; page: number; pageSize: number },
  env: FileEnv | null = null,
  now = Date.now(),
): Promise<HistoryPage> {
  const settings = await getImageSettings(db, shopId);
  // The manual list follows the product scope of the settings: published only when so chosen.
  const publishedOnly = q.pageType === 1 && q.dataType === 1 && settings.image_opt.product === 2;
  const automatic = settings.auto_switch === 1;
  const { rows, total } = await listHistoryItems(db, { shopId, ...q, publishedOnly });
  const figures = await imageFiguresOf(
    db,
    shopId,
    rows.map((r) => r.id),
  );
  const thumbnails = await Promise.all(rows.map((r) => thumbnailOf(env, shopId, r, figures.get(r.id), now)));
  const data = rows.map((r, i): HistoryRow => {
    const f = figures.get(r.id);
    const rid = (type: number) => (r.dataType === type ? r.resourceId : '');
    return {
      id: r.id,
      data_type: r.dataType,
      prod_id: rid(1),
      coll_id: rid(2),
      art_id: rid(3),
      blog_id: r.blogId ?? '',
      upload_id: rid(4),
      title: r.title,
      image: thumbnails[i] ?? '',
      is_delete: bit(r.deleted),
      opt_status: r.optStatus,
      status: historyStatus(r, automatic),
      pattern: r.pattern,
      comp_ratio: savedPercent(f?.originalSize ?? 0, f?.optimisedSize ?? 0),
      image_count: f?.imageCount ?? 0,
      opt_num: f?.optNum ?? 0,
      un_opt_num: f?.unOptNum ?? 0,
      is_published: bit(r.published),
      date: r.optimisedAt ?? r.updatedAt,
      // decisions.md: a failure shows with its reason in the history as well as in the detail.
      fail_num: f?.failNum ?? 0,
      fail_reason: f?.failReason ? keyedFromEnglish(f.failReason) : null,
    };
  });
  return { data, current_page: q.page, per_page: q.pageSize, total };
}

/** A failure's reason first (it is what the merchant must see), else the row's own note. */
function noteOf(r: ImageRow): KeyedMessage | null {
  if (r.status === 'failed' && r.failReason) return keyedFromEnglish(r.failReason);
  if (r.noteKey && isMessageKey(r.noteKey)) return { message_key: r.noteKey, params: r.noteParams ?? {} };
  return null;
}

export type FileEnv = Pick<Env, 'APP_URL' | 'SHOPIFY_API_SECRET'>;

async function imageRowView(env: FileEnv, shopId: number, r: ImageRow, now: number): Promise<ImageRowView> {
  // An expired original is gone (30 days): no link to it.
  const hasBefore = !!r.originalKey && !r.expired;
  const hasAfter = !!r.resultKey;
  const flags = {
    is_compress: bit(r.compressed),
    is_to_jpg: bit(r.convertedToJpg),
    is_edit_alt: bit(r.altEdited),
    is_edit_name: bit(r.fileNameEdited),
    is_watermark: bit(r.watermarked),
    is_restore: bit(r.restored),
    is_overdue: bit(r.expired),
    is_delete: bit(r.deleted),
  };
  const st = imageStatusOf({
    ...flags,
    has_before_file: hasBefore,
    has_after_file: hasAfter,
    process_status: r.status,
  });
  return {
    id: r.id,
    img_id: r.imgId,
    opt_id: r.itemId,
    src: r.src,
    alt: r.alt,
    file_name: r.fileName,
    file_type: r.fileType,
    img_size: r.originalSize,
    comp_size: r.optimisedSize,
    comp_ratio: r.compressed ? savedPercent(r.originalSize, r.optimisedSize) : 0,
    width: r.width,
    height: r.height,
    orig_width: r.originalWidth,
    orig_height: r.originalHeight,
    before_file_path: hasBefore ? await signedFileUrl(env, shopId, r.id, 'before', now) : '',
    after_file_path: hasAfter ? await signedFileUrl(env, shopId, r.id, 'after', now) : '',
    ...flags,
    is_download: bit(r.downloaded),
    status: st.label,
    process_status: r.status,
    tags: st.tags,
    disabled: st.disabled,
    can_view: st.can_view,
    can_download: st.can_download,
    can_restore: st.can_restore,
    optimised_at: r.optimisedAt,
    expires_at: r.expiresAt,
    note: noteOf(r),
  };
}

/** getProductImagesData: one item's image rows; null when the item is not the shop's. */
export async function itemImagesPage(
  db: Db,
  env: FileEnv,
  shopId: number,
  q: { prodId: string; dataType: number; page: number; pageSize: number },
  now = Date.now(),
): Promise<ItemImagesPage | null> {
  const item = await findItem(db, shopId, {
    resourceId: q.prodId,
    dataType: q.dataType,
    id: /^\d{1,12}$/.test(q.prodId) ? Number(q.prodId) : undefined,
  });
  if (!item) return null;
  const { rows, total } = await pageItemImages(db, shopId, item.id, q.page, q.pageSize);
  const data = await Promise.all(rows.map((r) => imageRowView(env, shopId, r, now)));
  return {
    data,
    current_page: q.page,
    per_page: q.pageSize,
    total,
    item: {
      id: item.id,
      data_type: item.dataType,
      resource_id: item.resourceId,
      title: item.title,
      image: item.thumbnailUrl,
      is_delete: bit(item.deleted),
    },
  };
}

/** getImgOptTotal: savings and candidates from the image rows, the settings, and the quota. */
export async function optTotals(db: Db, shop: ShopRow): Promise<ImgOptTotal> {
  const [settings, quota] = await Promise.all([getImageSettings(db, shop.id), quotaStatus(db, shop)]);
  const t = await shopImageTotals(db, shop.id, settings.image_opt);
  const saved = t.originalSize - t.compressSize;
  return {
    total: {
      total_saved_size: saved,
      avg_saved_space: t.optNum > 0 ? Math.round(saved / t.optNum) : 0,
      avg_saved_percent: savedPercent(t.originalSize, t.compressSize),
      total_original_size: t.originalSize,
      total_compress_size: t.compressSize,
      total_opt_num: t.optNum,
      un_opt_num: t.unOptNum,
    },
    settings: publicSettings(settings),
    opt_schedule: {
      // Images of the plan this period, and the overage ("impressions") the usage cap pays for.
      img_usage_use: quota.used - quota.overageUsed,
      img_usage_all: quota.planImages,
      impressions_use: quota.overageUsed,
      impressions_all: quota.overageAllowance,
      is_capped: quota.isCapped ? 1 : 0,
      is_over_quota: quota.isOverQuota ? 1 : 0,
      /** When the monthly quota starts again (epoch ms; the shop's billing-cycle day). */
      next_reset_at: quota.nextResetAt,
    },
  };
}
