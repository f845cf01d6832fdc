import {
  BlockStack,
  Box,
  Button,
  Card,
  Checkbox,
  ChoiceList,
  Divider,
  InlineStack,
  ProgressBar,
  SkeletonBodyText,
  SkeletonDisplayText,
  Text,
} from '@shopify/polaris';
import { Page } from '../shell/page';
import { useNavigate } from '@tanstack/react-router';
import { useAtom } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveNewGuideCfg } from '../api/calls';
import { useApiAction } from '../api/query';
import { TemplateSection } from '../image-settings';
import { LeaveGuard } from '../widgets/leave-guard';
import { StarRating, useRate } from '../support/star-rating';
import { useToast } from '../hooks/use-toast';
import type { TemplateScope } from '../lib/templates';
import {
  blockingEditors,
  defaultWizardConfig,
  guidePayload,
  isNextDisabled,
  progressFor,
  stepNumber,
  type WizardStep,
} from '../lib/wizard-rules';
import { GUIDE_OFFERED, markClosed } from '../lib/session-flags';
import { settingInfoAtom } from '../state/atoms';

/** Delay before leaving the wizard after the save answered. */
export const GUIDE_REDIRECT_MS = 1000;

/** /guidance: the six-screen first-run wizard. */
export function GuidanceScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const toast = useToast();
  const offerReview = useRate();
  const [info, setInfo] = useAtom(settingInfoAtom);
  const [step, setStep] = useState<WizardStep>(1);
  // A wizard finished before this visit never shows Welcome again: the merchant goes to the dashboard.
  // (Finishing it here clears new_guide_status too; that visit stays until its own redirect.)
  const [finishedBefore, setFinishedBefore] = useState<boolean | null>(null);
  if (info && finishedBefore === null) setFinishedBefore(info.new_guide_status !== 1);
  useEffect(() => markClosed(GUIDE_OFFERED), []);
  useEffect(() => {
    if (finishedBefore) void navigate({ to: '/main', replace: true });
  }, [finishedBefore, navigate]);
  const [config, setConfig] = useState(defaultWizardConfig);
  const [marked, setMarked] = useState<TemplateScope[]>([]);
  const [finished, setFinished] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);

  const leaveAfterDelay = (to: '/pricing' | '/image_optimisation') => {
    setFinished(true);
    timer.current = setTimeout(() => void navigate({ to }), GUIDE_REDIRECT_MS);
  };

  // The save's Success toast shows on the review step; leaving the wizard says it is done.
  const finish = () => {
    toast(t('guide.completed'));
    leaveAfterDelay('/pricing');
  };

  // A refused or failed save says 'Error' (the wizard's own text) and leaves for the image page.
  const saveGuide = useApiAction(saveNewGuideCfg, {
    onSuccess: () => {
      setInfo((i) => (i ? { ...i, new_guide_status: 0 } : i));
      toast(t('common.saved'));
      setStep(6);
    },
    onError: () => leaveAfterDelay('/image_optimisation'),
    fallback: t('common.error'),
    ownMessage: true,
  });
  const saving = saveGuide.pending;
  const save = () => saveGuide.run(guidePayload(config));

  const next = () => {
    const blocked = blockingEditors(step, config);
    setMarked(blocked);
    if (blocked.length) return;
    if (step === 5) return void save();
    setStep((s) => Math.min(6, s + 1) as WizardStep);
  };

  const rate = (score: number) => {
    offerReview(score); // no gating: every score is recorded and offered the public review
    setInfo((i) => (i ? { ...i, review_tips: 0 } : i));
    finish();
  };

  const counted = stepNumber(step);
  if (finishedBefore !== false)
    return (
      <Page narrowWidth>
        <Card>
          <BlockStack gap="400" inlineAlign="center">
            <SkeletonDisplayText size="medium" />
            <SkeletonBodyText lines={2} />
          </BlockStack>
        </Card>
      </Page>
    );
  return (
    <Page narrowWidth>
      <LeaveGuard when={step > 1 && step < 6 && !finished} />
      <Card>
        <BlockStack gap="500">
          {counted !== null && (
            <BlockStack gap="200">
              <Text as="p" tone="subdued">
                {t('guide.stepOf', { step: counted, total: 4 })}
              </Text>
              <ProgressBar progress={progressFor(step)} size="small" tone="primary" />
            </BlockStack>
          )}
          <StepBody
            step={step}
            config={config}
            setConfig={setConfig}
            marked={marked}
            onStart={() => setStep(2)}
            onRate={rate}
            onSkip={finish}
            finished={finished}
          />
          {step > 1 && step < 6 && (
            <InlineStack align="space-between" blockAlign="center">
              <Text as="p" variant="bodySm" tone="subdued">
                {t('guide.changeLater')}
              </Text>
              <InlineStack gap="200">
                <Button onClick={() => setStep((s) => (s - 1) as WizardStep)} disabled={saving}>
                  {t('common.back')}
                </Button>
                <Button variant="primary" onClick={next} disabled={isNextDisabled(step, config) || finished} loading={saving}>
                  {step === 5 ? t('guide.finish') : t('common.next')}
                </Button>
              </InlineStack>
            </InlineStack>
          )}
        </BlockStack>
      </Card>
    </Page>
  );
}

type BodyProps = {
  step: WizardStep;
  config: ReturnType<typeof defaultWizardConfig>;
  setConfig: (c: ReturnType<typeof defaultWizardConfig>) => void;
  marked: TemplateScope[];
  onStart: () => void;
  onRate: (score: number) => void;
  /** Skip is "not now", not a score: the dashboard asks again once the first optimisation has finished. */
  onSkip: () => void;
  finished: boolean;
};

function StepBody({ step, config, setConfig, marked, onStart, onRate, onSkip, finished }: BodyProps) {
  const { t } = useTranslation();
  const heading = (key: string) => (
    <Text as="h2" variant="headingLg">
      {t(key)}
    </Text>
  );
  switch (step) {
    case 1:
      return (
        <Box paddingBlock="600">
          <BlockStack gap="400" inlineAlign="center">
            {heading('guide.welcome.title')}
            <Text as="p" alignment="center">
              {t('guide.welcome.body')}
            </Text>
            <Button variant="primary" size="large" onClick={onStart}>
              {t('guide.welcome.start')}
            </Button>
          </BlockStack>
        </Box>
      );
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
