import { Banner, BlockStack, ChoiceList, Divider, Text } from '@shopify/polaris';
import { useTranslation } from 'react-i18next';
import type { ImageSettings } from '../../../../shared/image-settings';
import { emptyTemplates } from '../../lib/wizard-rules';
import { CompressionSection } from './compression-section';
import { TemplateSection } from './template-section';
import { WatermarkSection } from './watermark-section';

type Props = {
  value: ImageSettings;
  onChange: (next: ImageSettings) => void;
  /** Set after a refused save: marks empty editors and the missing watermark picture. */
  showErrors?: boolean;
  watermarkMissing?: boolean;
};

function Heading({ children }: { children: string }) {
  return (
    <Text as="h3" variant="headingMd">
      {children}
    </Text>
  );
}

/**
 * The image settings of image-optimisation.md section 2 (mode, Optimize Images, Image Alt Text, Image
 * Filename), controlled: the caller owns load, dirty state and save (Settings page, image page sheet).
 */
export function ImageSettingsForm({ value, onChange, showErrors = false, watermarkMissing = false }: Props) {
  const { t } = useTranslation();
  const set = (patch: Partial<ImageSettings>) => onChange({ ...value, ...patch });

  return (
    <BlockStack gap="500">
      {value.is_default === 1 && (
        <Banner tone="info">
          <p>{t('imageSettings.firstTime')}</p>
        </Banner>
      )}
      <BlockStack gap="200">
        <Heading>{t('imageSettings.mode.title')}</Heading>
        <ChoiceList
          title={t('imageSettings.mode.title')}
          titleHidden
          choices={[
            { label: t('imageSettings.mode.automatic'), value: '1', helpText: t('imageSettings.mode.automaticHelp') },
            { label: t('imageSettings.mode.manual'), value: '0', helpText: t('imageSettings.mode.manualHelp') },
          ]}
          selected={[String(value.auto_switch)]}
          onChange={([v]) => set({ auto_switch: v === '1' ? 1 : 0 })}
        />
        {value.auto_switch === 0 && (
          <Banner tone="warning">
            <p>{t('imageSettings.mode.manualWarning')}</p>
          </Banner>
        )}
      </BlockStack>
      <Divider />
      <BlockStack gap="200">
        <Heading>{t('imageSettings.compress.title')}</Heading>
        <CompressionSection value={value.image_opt} onChange={(image_opt) => set({ image_opt })} />
        {value.image_opt.switch === 1 && (
          <WatermarkSection
            value={value.image_opt.watermark}
            onChange={(watermark) => set({ image_opt: { ...value.image_opt, watermark } })}
            error={showErrors && watermarkMissing ? t('imageSettings.msg.watermarkRequired') : undefined}
          />
        )}
      </BlockStack>
      <Divider />
      <BlockStack gap="200">
        <Heading>{t('imageSettings.alt.title')}</Heading>
        <TemplateSection kind="alt" value={value.alt_text} onChange={(alt_text) => set({ alt_text })} invalid={showErrors ? emptyTemplates(value.alt_text) : []} />
      </BlockStack>
      <Divider />
      <BlockStack gap="200">
        <Heading>{t('imageSettings.file.title')}</Heading>
        <TemplateSection kind="file" value={value.file_name} onChange={(file_name) => set({ file_name })} invalid={showErrors ? emptyTemplates(value.file_name) : []} />
      </BlockStack>
    </BlockStack>
  );
}
