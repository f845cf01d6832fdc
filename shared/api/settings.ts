// Responses of the settings calls: getSettings / saveSettings / saveNewGuideCfg answer the image settings
// (shared/image-settings.ts); the older dashboard calls answer the legacy view below.
import type { ImageSettings } from '../image-settings';
import type { TemplateItem } from '../templates';

export type { ImageSettings };

export type LegacyCompressionType = 'lossless' | 'lossy' | 'custom';

/**
 * The older "dashboard settings object" (getAppDashboardData, getAppSettingData, updateAppSettingDataNew),
 * a view over the same settings store. Area flags `<prefix>_<code>` (optimize_*, alt_*, filename_*) for
 * codes 1, 2, 4, 5, 4_5 and 6 come on top of the named fields.
 */
export type LegacyView = {
  automatic_switch: number;
  compression_type: LegacyCompressionType;
  /** Low / Medium / High (1 / 2 / 3), kept even while custom or lossless is chosen. */
  compression_level: number;
  PNGquality: number;
  JPGquality: number;
  GIFquality: number;
  CustomCompressionQuality: number;
  /** Three 0/1 digits: file name, alt text, optimize images. */
  optimize_all_status: string;
  is_first: number;
  idOld: number;
  shop_owner: string;
  name: string;
  product_alt_template: string;
  collection_alt_template: string;
  blog_alt_template: string;
  product_filename_template: string;
  collection_filename_template: string;
  blog_filename_template: string;
  image_converting: number;
  isImageConverting: number;
  image_add_watermark_switch: number;
  image_add_watermark_img: string;
  position: string;
  size: number;
  opacity: number;
  imageAltText_NoAlt: number;
} & Record<string, string | number>;

/** getAppDashboardData: the legacy view under data, the shop under initData. */
export type DashboardInit = {
  shop_owner: string;
  name: string;
  email: string;
  shop_level: number;
  language: string;
  new_guide_status: number;
  is_old: number;
};

/** One item of the shop as the templates read it (shared/templates.ts), plus its first image's extension. */
export type TemplateSampleItem = {
  /** The catalogue fields the placeholders are filled from: title, vendor, productType, price, variant, blogTitle. */
  item: TemplateItem;
  /** The extension of the item's first image file ('' when unknown): file name templates keep it. */
  ext: string;
};

/**
 * GET /api/v2/image-opt/getTemplateSample: one real item per kind (the first synced product, collection
 * and blog post still on the store) for the live preview of alt text and file names; null when the shop
 * has none of that kind yet. The admin renders them with the Worker's own code (shared/templates.ts).
 */
export type TemplateSample = {
  shop_name: string;
  product: TemplateSampleItem | null;
  collection: TemplateSampleItem | null;
  blogs: TemplateSampleItem | null;
};
