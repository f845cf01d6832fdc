import { BlockStack, Text } from '@shopify/polaris';
import { Banner } from '../widgets/banner';
import { VideoThumbnail } from '../widgets/video-thumbnail';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getPricingPlans, updateCustomerClick } from '../api/calls';
import { useApiQuery } from '../api/query';
import { readPricing } from '../pricing/pricing-data';
import { useAppConfig } from '../hooks/use-app-config';
import { tutorialEmbedUrl } from '../lib/app-links';
import { useSessionClosable } from '../hooks/use-session-closable';
import { Modal } from '../shell/modal';
import { MediaCard } from '../widgets/media-card';
import './first-strings';

/** Closing a banner: hidden for the session, and the click is recorded (updateCustomerClick). */
const useClosable = (name: string) => useSessionClosable(name, () => void updateCustomerClick(name).catch(() => undefined));

/**
 * The new-user offer on the dashboard (promo banner), dismissible for the session. One offer
 * everywhere: the rate and months come from getPricingPlans' rebate_info, the
 * same source as the pricing page's countdown and the discount billing applies; no offer, no banner.
 * `when`: the screen's own condition (one banner at a time).
 */
export function PromoBanner({ when = true }: { when?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [closed, close] = useClosable('promo_banner');
  const offer = useNewUserOffer(!closed);
  if (!when || closed || !offer) return null;
  return (
    <Banner
      tone="info"
      title={t('pricing.discount.title', { rate: offer.rate, months: offer.months })}
      onDismiss={close}
      action={{ content: t('main.promo.action'), onAction: () => void navigate({ to: '/pricing' }) }}
    >
      <p>{t('main.promo.body')}</p>
    </Banner>
  );
}

/** The active new-user offer ({rate, months}) or null: none, expired, or not answered yet. */
function useNewUserOffer(enabled: boolean): { rate: number; months: number } | null {
  // A failed read shows no offer.
  const pricing = useApiQuery({
    key: ['pricingPlans'],
    call: getPricingPlans,
    select: (body) => readPricing(body.data),
    enabled,
    errorToast: false,
    // The dashboard read the plans a moment ago to place this banner: that answer is the one shown.
    reuseForMs: 60_000,
  });
  const data = pricing.data;
  const expires = Number(data?.rebate_info.expired_time ?? 0);
  return enabled && data?.canDiscount && expires > Date.now() && data.rebate_info.rate > 0
    ? { rate: data.rebate_info.rate, months: data.rebate_info.discount_period }
    : null;
}

// A drawn poster frame, so the card needs nothing from outside before the merchant presses play.
const POSTER = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#0b5b46"/><stop offset="1" stop-color="#29845a"/></linearGradient></defs><rect width="640" height="360" fill="url(#g)"/><path d="M120 250 L230 170 L300 215 L420 120 L520 180" stroke="#b4fed2" stroke-width="10" fill="none" stroke-linecap="round" stroke-linejoin="round"/><circle cx="520" cy="180" r="14" fill="#fff"/></svg>',
)}`;

/** Video card with Watch the video (modal) and Preview, and a dismiss menu. */
export function VideoCard({ onPreview }: { onPreview: () => void }) {
  const { t } = useTranslation();
  const [closed, close] = useClosable('video_card');
  const [open, setOpen] = useState(false);
  const videoUrl = tutorialEmbedUrl(useAppConfig().tutorial_video_url);
  if (closed) return null;
  return (
    <>
      <MediaCard
        title={t('main.video.title')}
        description={t('main.video.body')}
        primaryAction={
          videoUrl
            ? { content: t('main.video.watch'), onAction: () => setOpen(true) }
            : { content: t('main.video.preview'), onAction: onPreview }
        }
        secondaryAction={videoUrl ? { content: t('main.video.preview'), onAction: onPreview } : undefined}
        popoverActions={[{ content: t('common.dismiss'), onAction: close }]}
        size="small"
      >
        {videoUrl ? (
          <VideoThumbnail thumbnailUrl={POSTER} onClick={() => setOpen(true)} accessibilityLabel={t('main.video.watch')} />
        ) : (
          <img alt="" src={POSTER} style={{ width: '100%', height: '100%', objectFit: 'cover' }} />
        )}
      </MediaCard>
      <Modal open={open} onClose={() => setOpen(false)} title={t('main.video.title')} size="large">
        <Modal.Section>
          <BlockStack gap="200">
            {open && videoUrl && (
              <div style={{ position: 'relative', paddingTop: '56.25%' }}>
                <iframe
                  title={t('main.video.title')}
                  src={videoUrl}
                  style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', border: 0 }}
                  allow="autoplay; encrypted-media; picture-in-picture"
                  allowFullScreen
                />
              </div>
            )}
            <Text as="p" variant="bodySm" tone="subdued">
              {t('main.video.body')}
            </Text>
          </BlockStack>
        </Modal.Section>
      </Modal>
    </>
  );
}
