import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { TemplateSample, TemplateSampleItem } from '../../../shared/api/settings';
import type { TemplateContext } from '../../../shared/templates';
import { getTemplateSample } from '../api/calls';
import { useApiQuery } from '../api/query';
import type { TemplateScope } from '../lib/templates';
import './strings';

/** What one template's live preview renders: a real item of the shop, or sample values when it has none. */
export type PreviewSample = {
  ctx: TemplateContext;
  /** The file name extension the preview keeps (the item's first image's, else jpg). */
  ext: string;
  /** The real item's title; null for sample values. */
  title: string | null;
};

/** While the shop has no product yet (a new install's first catalogue sync), the sample is read again. */
export const SAMPLE_RETRY_MS = 3000;
export const SAMPLE_RETRIES = 20;

/**
 * The live preview's samples per scope: the first synced product, collection and blog post of the shop
 * (GET getTemplateSample, shared by every editor; read again for a minute while no product has synced,
 * as right after install). Without one of a kind, or while the read fails, the placeholders' own names
 * stand in and the preview says they are sample values.
 */
export function useTemplateSample(): Record<TemplateScope, PreviewSample> {
  const { t } = useTranslation();
  const retries = useRef(0);
  const answer = useApiQuery({
    key: ['templateSample'],
    call: getTemplateSample,
    select: (body): TemplateSample | undefined => body.data,
    errorToast: false,
    refetchInterval: (d) => {
      if (!d || d.product !== null || retries.current >= SAMPLE_RETRIES) return false;
      retries.current += 1;
      return SAMPLE_RETRY_MS;
    },
  });
  const data = answer.data;
  const shopName = data?.shop_name || t('imageSettings.placeholder.shop_name');
  const label = (name: string) => t(`imageSettings.placeholder.${name}`);
  const sample = (kind: TemplateScope, real: TemplateSampleItem | null | undefined, fallback: TemplateContext['item']) =>
    real
      ? { ctx: { kind, item: real.item, shopName }, ext: real.ext || 'jpg', title: real.item.title }
      : { ctx: { kind, item: fallback, shopName }, ext: 'jpg', title: null };
  return {
    product: sample('product', data?.product, {
      title: label('product_title'),
      vendor: label('product_vendor'),
      productType: label('product_type'),
      price: label('price'),
      variant: label('product_variant'),
    }),
    collection: sample('collection', data?.collection, { title: label('collection_title') }),
    blogs: sample('blogs', data?.blogs, { title: label('blog_title') }),
  };
}
