import { BlockStack, Checkbox, ChoiceList, RangeSlider, Select, Text } from '@shopify/polaris';
import { useTranslation } from 'react-i18next';
import {
  CUSTOM_QUALITY_MAX,
  CUSTOM_QUALITY_MIN,
  type ImageOptSettings,
  type QualitySettings,
} from '../../../shared/image-settings-base';
import './strings';

type Mode = 'level-1' | 'level-2' | 'level-3' | 'custom' | 'lossless';

function modeOf(q: QualitySettings): Mode {
  if (q.lossless === 1) return 'lossless';
  if (q.custom === 1) return 'custom';
  return `level-${q.level}`;
}

function qualityFor(mode: Mode, q: QualitySettings): QualitySettings {
  if (mode === 'lossless') return { ...q, lossless: 1, custom: 0 };
  if (mode === 'custom') return { ...q, lossless: 0, custom: 1 };
  return { ...q, lossless: 0, custom: 0, level: Number(mode.slice(6)) as 1 | 2 | 3 };
}

/** Long-side limits of "Resize images larger than N px" (0 = off). */
const RESIZE_CHOICES = [0, 2048, 2880, 4096] as const;

/** Optimize Images: scopes, compression level (Low/Medium/High, custom 55..95, lossless), resize, PNG to JPG. */
export function CompressionSection({ value, onChange }: { value: ImageOptSettings; onChange: (next: ImageOptSettings) => void }) {
  const { t } = useTranslation();
  const set = (patch: Partial<ImageOptSettings>) => onChange({ ...value, ...patch });
  const mode = modeOf(value.quality);
  const scoped = value.product !== 0 || value.collection === 1 || value.blogs === 1;

  return (
    <BlockStack gap="300">
      <Checkbox
        label={t('imageSettings.compress.switch')}
        checked={value.switch === 1}
        onChange={(c) => set({ switch: c ? 1 : 0 })}
      />
      {value.switch === 1 && (
        <>
          <ChoiceList
            title={t('imageSettings.scope.productTitle')}
            choices={[
              { label: t('imageSettings.compress.productAll'), value: '1' },
              { label: t('imageSettings.compress.productPublished'), value: '2' },
              { label: t('imageSettings.scope.none'), value: '0' },
            ]}
            selected={[String(value.product)]}
            onChange={([v]) => set({ product: Number(v) as 0 | 1 | 2 })}
          />
          <Checkbox
            label={t('imageSettings.compress.collection')}
            checked={value.collection === 1}
            onChange={(c) => set({ collection: c ? 1 : 0 })}
          />
          <Checkbox
            label={t('imageSettings.compress.blogs')}
            checked={value.blogs === 1}
            onChange={(c) => set({ blogs: c ? 1 : 0 })}
          />
          {!scoped && (
            <Text as="p" tone="critical">
              {t('server.settings.needOneItem')}
            </Text>
          )}
          <ChoiceList
            title={t('imageSettings.compress.level')}
            choices={[
              { label: t('imageSettings.compress.low'), value: 'level-1', helpText: t('imageSettings.compress.lowHelp') },
              { label: t('imageSettings.compress.medium'), value: 'level-2', helpText: t('imageSettings.compress.mediumHelp') },
              { label: t('imageSettings.compress.high'), value: 'level-3', helpText: t('imageSettings.compress.highHelp') },
              { label: t('imageSettings.compress.custom'), value: 'custom' },
              {
                label: t('imageSettings.compress.lossless'),
                value: 'lossless',
                helpText: t('imageSettings.compress.losslessHelp'),
              },
            ]}
            selected={[mode]}
            onChange={([v]) => set({ quality: qualityFor((v ?? 'level-2') as Mode, value.quality) })}
          />
          {mode === 'custom' && (
            <RangeSlider
              label={t('imageSettings.compress.customQuality')}
              min={CUSTOM_QUALITY_MIN}
              max={CUSTOM_QUALITY_MAX}
              step={1}
              value={value.quality.custom_ratio}
              output
              suffix={<Text as="span">{value.quality.custom_ratio}</Text>}
              onChange={(v) =>
                set({ quality: { ...value.quality, custom_ratio: Array.isArray(v) ? (v[0] ?? CUSTOM_QUALITY_MIN) : v } })
              }
            />
          )}
          <Select
            label={t('imageSettings.resize.label')}
            helpText={t('imageSettings.resize.help')}
            options={RESIZE_CHOICES.map((px) => ({
              label: px === 0 ? t('imageSettings.resize.off') : `${px} px`,
              value: String(px),
            }))}
            value={String(value.resize_long_side)}
            onChange={(v) => set({ resize_long_side: Number(v) as (typeof RESIZE_CHOICES)[number] })}
          />
          <Checkbox
            label={t('imageSettings.png.switch')}
            helpText={t('imageSettings.png.help')}
            checked={value.pngtojpg === 1}
            onChange={(c) => set({ pngtojpg: c ? 1 : 0 })}
          />
          {value.pngtojpg === 1 && (
            <div style={{ paddingInlineStart: 28 }}>
              <Checkbox
                label={t('imageSettings.png.sizeControl')}
                checked={value.pngtojpg_size_control === 1}
                onChange={(c) => set({ pngtojpg_size_control: c ? 1 : 0 })}
              />
            </div>
          )}
        </>
      )}
    </BlockStack>
  );
}
