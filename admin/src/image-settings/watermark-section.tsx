import { BlockStack, Checkbox, DropZone, InlineStack, RangeSlider, Select, Text, Thumbnail } from '@shopify/polaris';
import { Banner } from '../widgets/banner';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { WATERMARK_MAX_BYTES, WATERMARK_POSITIONS, type WatermarkSettings } from '../../../shared/image-settings-base';
import './strings';

const POSITION_KEYS: Record<(typeof WATERMARK_POSITIONS)[number], string> = {
  t_l: 'topLeft',
  t_c: 'topCenter',
  t_r: 'topRight',
  c: 'center',
  b_l: 'bottomLeft',
  b_c: 'bottomCenter',
  b_r: 'bottomRight',
};

const readAsDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string); // readAsDataURL gives a string
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsDataURL(file);
  });

/** Where the stored picture is served. */
export const watermarkUrl = (logo: string) => `/imageAddWatermark/${encodeURIComponent(logo)}`;

/**
 * The size slider's lowest percent (decisions.md "Watermark size": the settings screen offers 10 to 100
 * percent of the image height, the older page 1 to 100; image-optimisation.md section 5).
 */
export const WATERMARK_SIZE_MIN = { sheet: 10, olderPage: 1 } as const;

/** The stored fraction as the percent it is (0.05 is 5 %), never raised to the slider's lowest step. */
export const watermarkSizePercent = (imageHeight: number) => Math.max(1, Math.round(imageHeight * 100));

/**
 * Watermark: picture upload (jpg/png, 500 KB) with preview, position, size `minSizePercent`..100 % of
 * the image height (saved as a fraction with two decimals) and opacity 0.1..1. A stored size below the
 * slider's lowest step (0.05 on the sheet) is shown as it is and the slider reaches down to it.
 */
export function WatermarkSection({
  value,
  onChange,
  error,
  minSizePercent = WATERMARK_SIZE_MIN.sheet,
}: {
  value: WatermarkSettings;
  onChange: (next: WatermarkSettings) => void;
  error?: string;
  minSizePercent?: number;
}) {
  const { t } = useTranslation();
  const [fileError, setFileError] = useState<string | null>(null);
  const set = (patch: Partial<WatermarkSettings>) => onChange({ ...value, ...patch });
  const preview = value.file_data ?? (value.logo ? watermarkUrl(value.logo) : null);
  const sizePercent = watermarkSizePercent(value.image_height);

  const accept = async (files: File[]) => {
    const file = files[0];
    if (!file) return;
    const ext = file.name.toLowerCase().split('.').pop() ?? '';
    if (!['jpg', 'jpeg', 'png'].includes(ext)) return setFileError(t('server.settings.watermarkType'));
    if (file.size > WATERMARK_MAX_BYTES) return setFileError(t('server.settings.watermarkTooLarge'));
    setFileError(null);
    set({ file_data: await readAsDataUrl(file), file_name: file.name });
  };

  return (
    <BlockStack gap="300">
      <Checkbox
        label={t('imageSettings.watermark.switch')}
        checked={value.switch === 1}
        onChange={(c) => set({ switch: c ? 1 : 0 })}
      />
      {value.switch === 1 && (
        <>
          <Banner tone="warning">
            <p>{t('imageSettings.watermark.warning')}</p>
          </Banner>
          <InlineStack gap="400" blockAlign="center" wrap={false}>
            <div style={{ width: 120, height: 120 }}>
              <DropZone
                accept=".jpg,.jpeg,.png,image/jpeg,image/png"
                type="image"
                allowMultiple={false}
                onDrop={(files) => void accept(files)}
                label={t('imageSettings.watermark.upload')}
                labelHidden
              >
                {preview ? (
                  <div style={{ padding: 8 }}>
                    <Thumbnail size="large" alt={t('imageSettings.watermark.preview')} source={preview} />
                  </div>
                ) : (
                  <DropZone.FileUpload
                    actionTitle={t('imageSettings.watermark.upload')}
                    actionHint={t('imageSettings.watermark.hint')}
                  />
                )}
              </DropZone>
            </div>
            <BlockStack gap="100">
              {preview && (
                <Text as="p" variant="bodySm" tone="subdued">
                  {t('imageSettings.watermark.hint')}
                </Text>
              )}
              {(fileError ?? error) ? (
                <Text as="p" tone="critical">
                  {fileError ?? error}
                </Text>
              ) : (
                // Before any save: the documented reminder 'You should upload watermark picture'; a save
                // without one is refused with 'Watermark image must be uploaded to save' (error above).
                !preview && (
                  <Text as="p" tone="caution">
                    {t('imageSettings.watermark.uploadFirst')}
                  </Text>
                )
              )}
            </BlockStack>
          </InlineStack>
          <Select
            label={t('imageSettings.watermark.position')}
            options={WATERMARK_POSITIONS.map((p) => ({
              value: p,
              label: t(`imageSettings.watermark.positions.${POSITION_KEYS[p]}`),
            }))}
            value={value.position}
            onChange={(v) => set({ position: v as WatermarkSettings['position'] })}
          />
          <RangeSlider
            label={t('imageSettings.watermark.size')}
            min={Math.min(minSizePercent, sizePercent)}
            max={100}
            step={1}
            value={sizePercent}
            suffix={<Text as="span">{sizePercent}%</Text>}
            onChange={(v) => set({ image_height: Math.round(Number(Array.isArray(v) ? v[0] : v)) / 100 })}
          />
          <RangeSlider
            label={t('imageSettings.watermark.opacity')}
            min={0.1}
            max={1}
            step={0.1}
            value={value.opacity}
            suffix={<Text as="span">{value.opacity.toFixed(1)}</Text>}
            onChange={(v) => set({ opacity: Math.round(Number(Array.isArray(v) ? v[0] : v) * 10) / 10 })}
          />
        </>
      )}
    </BlockStack>
  );
}
