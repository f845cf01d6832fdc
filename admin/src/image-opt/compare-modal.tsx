import { BlockStack, InlineStack, Spinner, Text } from '@shopify/polaris';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatSize } from '../lib/intl';
import { COMPARE_LOADING_MS, formatRatio } from './rules';
import { Modal } from '../shell/modal';
import './strings';

export type CompareImages = { before: string; after: string; beforeSize: number; afterSize: number; ratio: number; name: string };

/**
 * 'Compress images without losing quality': the optimised picture with the original laid over it and
 * clipped at a slider, so the merchant drags across the same pixels; sizes under each side.
 */
export function CompareModal({ images, onClose }: { images: CompareImages | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const [split, setSplit] = useState(50);
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    if (!images) return;
    setSplit(50);
    setLoading(true);
    const id = setTimeout(() => setLoading(false), COMPARE_LOADING_MS);
    return () => clearTimeout(id);
  }, [images]);

  return (
    <Modal open={images !== null} onClose={onClose} title={t('imageOpt.compare.title')} size="large">
      <Modal.Section>
        {images && (
          <BlockStack gap="300">
            {loading ? (
              <div style={{ display: 'flex', justifyContent: 'center', padding: 48 }}>
                <Spinner accessibilityLabel={t('imageOpt.compare.loading')} />
              </div>
            ) : (
              <div
                data-testid="compare-frame"
                style={{ position: 'relative', width: '100%', userSelect: 'none', background: '#f1f1f1', lineHeight: 0 }}
              >
                <img
                  src={images.after}
                  alt={t('imageOpt.compare.after')}
                  style={{ width: '100%', display: 'block', maxHeight: '60vh', objectFit: 'contain' }}
                />
                <div style={{ position: 'absolute', inset: 0, clipPath: `inset(0 ${100 - split}% 0 0)` }}>
                  <img
                    src={images.before}
                    alt={t('imageOpt.compare.before')}
                    style={{ width: '100%', height: '100%', display: 'block', objectFit: 'contain', background: '#f1f1f1' }}
                  />
                </div>
                <div
                  style={{
                    position: 'absolute',
                    top: 0,
                    bottom: 0,
                    left: `${split}%`,
                    width: 2,
                    background: '#fff',
                    boxShadow: '0 0 4px rgba(0,0,0,.6)',
                  }}
                />
                <span
                  style={{
                    position: 'absolute',
                    top: 8,
                    left: 8,
                    lineHeight: 1.4,
                    padding: '2px 8px',
                    borderRadius: 8,
                    background: 'rgba(0,0,0,.6)',
                    color: '#fff',
                  }}
                >
                  {t('imageOpt.compare.before')}
                </span>
                <span
                  style={{
                    position: 'absolute',
                    top: 8,
                    right: 8,
                    lineHeight: 1.4,
                    padding: '2px 8px',
                    borderRadius: 8,
                    background: 'rgba(0,0,0,.6)',
                    color: '#fff',
                  }}
                >
                  {t('imageOpt.compare.after')}
                </span>
                <input
                  type="range"
                  min={0}
                  max={100}
                  value={split}
                  aria-label={t('imageOpt.compare.slider')}
                  onChange={(e) => setSplit(Number(e.target.value))}
                  style={{
                    position: 'absolute',
                    inset: 0,
                    width: '100%',
                    height: '100%',
                    opacity: 0,
                    cursor: 'ew-resize',
                    margin: 0,
                  }}
                />
              </div>
            )}
            <InlineStack align="space-between">
              <Text as="p">{t('imageOpt.compare.beforeSize', { size: formatSize(images.beforeSize, i18n.language) })}</Text>
              <Text as="p" tone="success">
                {t('imageOpt.compare.saved', { ratio: formatRatio(images.ratio, i18n.language) })}
              </Text>
              <Text as="p">{t('imageOpt.compare.afterSize', { size: formatSize(images.afterSize, i18n.language) })}</Text>
            </InlineStack>
          </BlockStack>
        )}
      </Modal.Section>
    </Modal>
  );
}
