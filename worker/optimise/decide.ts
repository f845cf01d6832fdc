// What one image gets, decided from the shop's settings and the item (pure).
import { areaApplies, engineQualityOf, type ImageKind, type ImageSettings } from '../../shared/image-settings';
import type { ImageRow } from '../db/images';
import type { ItemRow } from '../db/items';
import type { EngineSettings } from '../images/types';
import { decideAltText, decideFileNames, type TemplateContext } from './templates';
import type { UploadOptions } from '../messages/optimise';
import { DATA_TYPES } from '../../shared/api/vocabulary';

export { DATA_TYPES };

export function kindOfDataType(dataType: number): ImageKind | 'upload' {
  return dataType === 1 ? 'product' : dataType === 2 ? 'collection' : dataType === 3 ? 'blogs' : 'upload';
}

/** Per-upload choices of uploadImagesOpt's opt_cfg; catalogue images follow the settings only. */
export type { UploadOptions };

export function engineSettingsOf(
  settings: ImageSettings,
  watermarkBytes: Uint8Array | null,
  upload?: UploadOptions,
): EngineSettings {
  const q = engineQualityOf(settings);
  const io = settings.image_opt;
  const wantWatermark = upload ? upload.watermark : io.watermark.switch === 1;
  return {
    mode: q.lossless ? 'lossless' : 'lossy',
    quality: q.lossless ? 75 : q.quality,
    pngToJpg: upload ? upload.pngToJpg : io.pngtojpg === 1,
    pngToJpgSizeControl: io.pngtojpg_size_control === 1,
    ...(io.resize_long_side ? { resizeLongSide: io.resize_long_side } : {}),
    ...(wantWatermark && watermarkBytes
      ? {
          watermark: {
            bytes: watermarkBytes,
            position: io.watermark.position,
            heightFraction: io.watermark.image_height,
            opacity: io.watermark.opacity,
          },
        }
      : {}),
  };
}

export function compressionApplies(settings: ImageSettings, item: ItemRow): boolean {
  const kind = kindOfDataType(item.dataType);
  if (kind === 'upload') return true;
  return areaApplies(settings.image_opt, kind, item.published);
}

/** The item fields a template's placeholders read (the optimiser and the settings preview share it). */
export function templateItemOf(item: Pick<ItemRow, 'title' | 'vendor' | 'productType' | 'price' | 'variant' | 'blogTitle'>) {
  const { title, vendor, productType, price, variant, blogTitle } = item;
  return { title, vendor, productType, price, variant, blogTitle };
}

export function templateContextOf(item: ItemRow, shopName: string): TemplateContext & { isPublished: boolean } {
  const kind = kindOfDataType(item.dataType);
  return {
    kind: kind === 'upload' ? 'product' : kind,
    item: templateItemOf(item),
    shopName,
    isPublished: item.published,
  };
}

/**
 * Alt text and file name for one image (null: leave as is). blank_replace looks at the merchant's own
 * alt (the one before our first change), so a re-optimise does not treat our alt as the merchant's.
 */
export function decideMetadata(
  settings: ImageSettings,
  item: ItemRow,
  image: ImageRow,
  siblings: readonly ImageRow[],
  shopName: string,
): { alt: string | null; fileName: string | null } {
  if (item.dataType === DATA_TYPES.upload) return { alt: null, fileName: null };
  const ctx = templateContextOf(item, shopName);
  // Alt text we did not write (altEdited off) is the merchant's, newer than any kept originalAlt.
  const merchantAlt = image.altEdited ? (image.originalAlt ?? image.alt) : image.alt;
  const alt = decideAltText(settings.alt_text, { ...ctx, currentAlt: merchantAlt });
  const names = decideFileNames(
    settings.file_name,
    ctx,
    siblings.map((s) => ({
      id: s.id,
      position: s.position,
      fileName: s.fileNameEdited ? (s.originalFileName ?? s.fileName) : s.fileName,
    })),
  );
  const fileName = names.get(image.id) ?? null;
  return { alt: alt === image.alt ? null : alt, fileName: fileName === image.fileName ? null : fileName };
}

export function mimeOf(format: string): string {
  return format === 'png' ? 'image/png' : format === 'webp' ? 'image/webp' : format === 'gif' ? 'image/gif' : 'image/jpeg';
}

export function extOf(format: string): string {
  return format === 'jpeg' ? 'jpg' : format;
}
