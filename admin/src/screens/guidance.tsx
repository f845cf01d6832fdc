import { BlockStack, Box, Button, Card, InlineStack, SkeletonBodyText, SkeletonDisplayText, Text } from '@shopify/polaris';
import { Page } from '../shell/page';
import { useNavigate } from '@tanstack/react-router';
import { useAtom } from 'jotai';
import { startTransition, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveNewGuideCfg } from '../api/calls';
import { useApiAction } from '../api/query';
import { useRate } from '../support/star-rating';
import { useToast } from '../hooks/use-toast';
import type { TemplateScope } from '../lib/templates';
import {
  blockingEditors,
  defaultWizardConfig,
  guidePayload,
  isNextDisabled,
  stepNumber,
  type WizardStep,
} from '../lib/wizard-rules';
import { GUIDE_OFFERED, markClosed } from '../lib/session-flags';
import { settingInfoAtom } from '../state/atoms';
import './guide-strings';

// Everything after the welcome (screens/guidance-steps.tsx) is fetched when the merchant reaches for the
// start button, and the wizard moves on once it is there (issue 26: first-screen JavaScript).
const loadSteps = () => import('./guidance-steps');
type Steps = Awaited<ReturnType<typeof loadSteps>>;
const preloadSteps = () => void loadSteps();

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
  const [steps, setSteps] = useState<Steps | null>(null);
  const start = () =>
    void loadSteps().then((loaded) =>
      startTransition(() => {
        setSteps(loaded);
        setStep(2);
      }),
    );
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
      {steps && <steps.LeaveGuard when={step > 1 && step < 6 && !finished} />}
      <Card>
        <BlockStack gap="500">
          {steps && counted !== null && <steps.StepProgress step={step} counted={counted} />}
          {step === 1 || !steps ? (
            <Box paddingBlock="600">
              <BlockStack gap="400" inlineAlign="center">
                <Text as="h2" variant="headingLg">
                  {t('guide.welcome.title')}
                </Text>
                <Text as="p" alignment="center">
                  {t('guide.welcome.body')}
                </Text>
                <Button
                  variant="primary"
                  size="large"
                  onClick={start}
                  onMouseEnter={preloadSteps}
                  onFocus={preloadSteps}
                  onTouchStart={preloadSteps}
                >
                  {t('guide.welcome.start')}
                </Button>
              </BlockStack>
            </Box>
          ) : (
            <steps.StepBody
              step={step}
              config={config}
              setConfig={setConfig}
              marked={marked}
              onRate={rate}
              onSkip={finish}
              finished={finished}
            />
          )}
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
