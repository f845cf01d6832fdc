import { BlockStack, Button, ChoiceList, Collapsible, Divider, InlineStack, Text } from '@shopify/polaris';
import { Banner } from '../widgets/banner';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImageSettings } from '../../../shared/image-settings';
import { isClosed, markClosed } from '../lib/session-flags';
import { emptyTemplates } from '../lib/wizard-rules';
import { CompressionSection } from './compression-section';
import { TemplateSection } from './template-section';
import type { SettingsSection } from './use-image-settings';
import { WatermarkSection } from './watermark-section';
import './strings';

type Props = {
  value: ImageSettings;
  onChange: (next: ImageSettings) => void;
  /** Set after a refused save: marks empty editors and the missing watermark picture. */
  showErrors?: boolean;
  watermarkMissing?: boolean;
  /** A refused save: that section is expanded and scrolled into view (again on every new seq). */
  fault?: { section: SettingsSection; seq: number } | null;
  /** The watermark size slider's lowest percent: 10 on the image page's sheet, 1 on the older /setting page. */
  watermarkMinPercent?: number;
};

/** A section the merchant can fold away; its heading is the disclosure button. */
function FoldSection({
  id,
  title,
  open,
  onToggle,
  children,
}: {
  id: SettingsSection;
  title: string;
  open: boolean;
  onToggle: () => void;
  children: ReactNode;
}) {
  return (
    <div data-settings-section={id}>
      <BlockStack gap="200">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h3" variant="headingMd">
            {title}
          </Text>
          <Button
            variant="plain"
            disclosure={open ? 'up' : 'down'}
            onClick={onToggle}
            ariaExpanded={open}
            ariaControls={`settings-section-${id}`}
            accessibilityLabel={title}
          />
        </InlineStack>
        <Collapsible id={`settings-section-${id}`} open={open} transition={false}>
          {children}
        </Collapsible>
      </BlockStack>
    </div>
  );
}

/** Session flag of the first-time banner (lib/session-flags.ts). */
const FIRST_TIME_BANNER = 'imageSettingsFirstTime';

/**
 * The image settings (mode, Optimize Images, Image Alt Text, Image
 * Filename), controlled: the caller owns load, dirty state and save (Settings page, image page sheet).
 */
export function ImageSettingsForm({
  value,
  onChange,
  showErrors = false,
  watermarkMissing = false,
  fault = null,
  watermarkMinPercent,
}: Props) {
  const { t } = useTranslation();
  const set = (patch: Partial<ImageSettings>) => onChange({ ...value, ...patch });
  const [open, setOpen] = useState<Record<SettingsSection, boolean>>({ mode: true, compress: true, alt: true, file: true });
  const toggle = (id: SettingsSection) => setOpen((o) => ({ ...o, [id]: !o[id] }));
  const root = useRef<HTMLDivElement>(null);
  // "A first-time banner says to finish the settings" (image-optimisation.md section 2), shown once: on
  // the first settings view of the session while nothing is saved, and not again once seen or closed.
  const [firstTimeSeenBefore] = useState(() => isClosed(FIRST_TIME_BANNER));
  const [firstTimeDismissed, setFirstTimeDismissed] = useState(false);
  const showFirstTime = value.is_default === 1 && !firstTimeSeenBefore && !firstTimeDismissed;
  useEffect(() => {
    if (showFirstTime) markClosed(FIRST_TIME_BANNER);
  }, [showFirstTime]);

  // A refused save: the section at fault opens and comes into view.
  useEffect(() => {
    if (!fault) return;
    setOpen((o) => ({ ...o, [fault.section]: true }));
    const id = requestAnimationFrame(() =>
      root.current
        ?.querySelector(`[data-settings-section="${fault.section}"]`)
        ?.scrollIntoView?.({ behavior: 'smooth', block: 'start' }),
    );
    return () => cancelAnimationFrame(id);
  }, [fault]);

  return (
    <div ref={root}>
      <BlockStack gap="500">
        {showFirstTime && (
          <Banner tone="info" onDismiss={() => setFirstTimeDismissed(true)}>
            <p>{t('imageSettings.firstTime')}</p>
          </Banner>
        )}
        <FoldSection id="mode" title={t('imageSettings.mode.title')} open={open.mode} onToggle={() => toggle('mode')}>
          <BlockStack gap="200">
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
        </FoldSection>
        <Divider />
        <FoldSection
          id="compress"
          title={t('imageSettings.compress.title')}
          open={open.compress}
          onToggle={() => toggle('compress')}
        >
          <BlockStack gap="200">
            <CompressionSection value={value.image_opt} onChange={(image_opt) => set({ image_opt })} />
            {value.image_opt.switch === 1 && (
              <WatermarkSection
                value={value.image_opt.watermark}
                onChange={(watermark) => set({ image_opt: { ...value.image_opt, watermark } })}
                error={showErrors && watermarkMissing ? t('server.settings.watermarkRequired') : undefined}
                {...(watermarkMinPercent !== undefined ? { minSizePercent: watermarkMinPercent } : {})}
              />
            )}
          </BlockStack>
        </FoldSection>
        <Divider />
        <FoldSection id="alt" title={t('imageSettings.alt.title')} open={open.alt} onToggle={() => toggle('alt')}>
          <TemplateSection
            kind="alt"
            value={value.alt_text}
            onChange={(alt_text) => set({ alt_text })}
            invalid={showErrors ? emptyTemplates(value.alt_text) : []}
          />
        </FoldSection>
        <Divider />
        <FoldSection id="file" title={t('imageSettings.file.title')} open={open.file} onToggle={() => toggle('file')}>
          <TemplateSection
            kind="file"
            value={value.file_name}
            onChange={(file_name) => set({ file_name })}
            convertsPng={value.image_opt.switch === 1 && value.image_opt.pngtojpg === 1}
            invalid={showErrors ? emptyTemplates(value.file_name) : []}
          />
        </FoldSection>
      </BlockStack>
    </div>
  );
}
