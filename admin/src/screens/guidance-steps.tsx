import { BlockStack, Box, Button, Checkbox, ChoiceList, Divider, Text } from '@shopify/polaris';
import { ProgressBar } from '../widgets/progress-bar';
import { useTranslation } from 'react-i18next';
import { TemplateSection } from '../image-settings/template-section';
import { StarRating } from '../support/star-rating';
import type { TemplateScope } from '../lib/templates';
import { progressFor, type defaultWizardConfig, type WizardStep } from '../lib/wizard-rules';
import '../image-settings/strings';
import './guide-strings';
export { LeaveGuard } from '../widgets/leave-guard';

// The wizard's steps after the welcome (screens/guidance.tsx): image types, alt text and file name
// templates with their editor and preview, backup, review. Their code is fetched when the merchant
// reaches for "Let's start now" (issue 26: first-screen JavaScript; the welcome is all the first screen
// shows).

/** "Step n of 4" and its bar. */
export function StepProgress({ step, counted }: { step: WizardStep; counted: number }) {
  const { t } = useTranslation();
  return (
    <BlockStack gap="200">
      <Text as="p" tone="subdued">
        {t('guide.stepOf', { step: counted, total: 4 })}
      </Text>
      <ProgressBar progress={progressFor(step)} size="small" tone="primary" />
    </BlockStack>
  );
}

type BodyProps = {
  step: WizardStep;
  config: ReturnType<typeof defaultWizardConfig>;
  setConfig: (c: ReturnType<typeof defaultWizardConfig>) => void;
  marked: TemplateScope[];
  onRate: (score: number) => void;
  /** Skip is "not now", not a score: the dashboard asks again once the first optimisation has finished. */
  onSkip: () => void;
  finished: boolean;
};

export function StepBody({ step, config, setConfig, marked, onRate, onSkip, finished }: BodyProps) {
  const { t } = useTranslation();
  const heading = (key: string) => (
    <Text as="h2" variant="headingLg">
      {t(key)}
    </Text>
  );
  switch (step) {
    case 1:
      return null; // the welcome: guidance.tsx
    case 2: {
      const opt = config.image_opt;
      const set = (patch: Partial<typeof opt>) => setConfig({ ...config, image_opt: { ...opt, ...patch } });
      return (
        <BlockStack gap="300">
          {heading('guide.types.title')}
          <Text as="p" tone="subdued">
            {t('guide.types.body')}
          </Text>
          <Checkbox label={t('guide.types.product')} checked={opt.product !== 0} onChange={(c) => set({ product: c ? 1 : 0 })} />
          <Checkbox label={t('guide.types.blogs')} checked={opt.blogs === 1} onChange={(c) => set({ blogs: c ? 1 : 0 })} />
          <Checkbox
            label={t('guide.types.collection')}
            checked={opt.collection === 1}
            onChange={(c) => set({ collection: c ? 1 : 0 })}
          />
          <Divider />
          {/* Automatic mode is the merchant's choice, manual until they pick it (decisions.md). */}
          <ChoiceList
            title={t('imageSettings.mode.title')}
            choices={[
              { label: t('imageSettings.mode.manual'), value: '0', helpText: t('imageSettings.mode.manualHelp') },
              { label: t('imageSettings.mode.automatic'), value: '1', helpText: t('imageSettings.mode.automaticHelp') },
            ]}
            selected={[String(config.auto_switch)]}
            onChange={([v]) => setConfig({ ...config, auto_switch: v === '1' ? 1 : 0 })}
          />
        </BlockStack>
      );
    }
    case 3:
      return (
        <BlockStack gap="300">
          {heading('guide.alt.title')}
          <Text as="p" tone="subdued">
            {t('guide.alt.body')}
          </Text>
          <TemplateSection
            kind="alt"
            value={config.alt_text}
            onChange={(alt_text) => setConfig({ ...config, alt_text })}
            invalid={marked}
          />
        </BlockStack>
      );
    case 4:
      return (
        <BlockStack gap="300">
          {heading('guide.file.title')}
          <Text as="p" tone="subdued">
            {t('guide.file.body')}
          </Text>
          <TemplateSection
            kind="file"
            value={config.file_name}
            onChange={(file_name) => setConfig({ ...config, file_name })}
            convertsPng={config.image_opt.pngtojpg === 1}
            invalid={marked}
          />
        </BlockStack>
      );
    case 5:
      return (
        <BlockStack gap="300">
          {heading('guide.backup.title')}
          <Text as="p">{t('guide.backup.body')}</Text>
        </BlockStack>
      );
    case 6:
      return (
        <Box paddingBlock="400">
          <BlockStack gap="400" inlineAlign="center">
            {heading('guide.review.title')}
            <Text as="p" alignment="center">
              {t('guide.review.body')}
            </Text>
            {!finished && <StarRating onRate={onRate} />}
            <Button variant="plain" onClick={onSkip} disabled={finished}>
              {t('guide.review.skip')}
            </Button>
          </BlockStack>
        </Box>
      );
  }
}
