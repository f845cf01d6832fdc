import { BlockStack, Card, InlineStack, Layout, SkeletonBodyText, SkeletonDisplayText, SkeletonPage } from '@shopify/polaris';
import { useNavigate } from '@tanstack/react-router';
import { Page } from '../shell/page';
import { HeaderActions } from '../widgets/header-actions';
import { useSetAtom } from 'jotai';
import { lazy, Suspense, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { planLimitAtom, planLimitOf } from '../pricing/plan-limit';
import { ReauthorizeModal } from '../shell/reauthorize-modal';
import { ReviewBanner } from '../support/review-banner';
import { useReloadSettingInfo, useSettingInfo } from '../hooks/use-settings-info';
import { OverageReminder, PartnerAdBanner, PlanLimitBanner } from '../image-opt/banners';
import type { CompareImages } from '../image-opt/compare-modal';
import { AUTO_HISTORY_REFRESH_MS, quotaUsedUp } from '../image-opt/rules';
import { StatsCards } from '../image-opt/stats-cards';
import { useImagePage } from '../image-opt/use-image-page';
import { useViewUpload } from '../image-opt/use-view-upload';
import { useOptProgress, type StartedFrom } from '../image-opt/use-opt-progress';
import { usePagedList } from '../image-opt/use-paged-list';
import { Later, useReadyInTransition } from '../hooks/use-later';
import { lazyPart } from '../hooks/lazy-part';
import { useWarmIntl } from '../hooks/use-warm-intl';
import '../image-opt/page-strings';

// Loaded on use (issue 26): the settings sheet (the whole settings form), the upload, the manual run and
// the before/after comparison are fetched when the merchant opens them, not with the screen.
const SettingsSheet = lazy(() => import('../image-opt/settings-sheet').then((m) => ({ default: m.SettingsSheet })));
const UploadModal = lazy(() => import('../image-opt/upload-modal').then((m) => ({ default: m.UploadModal })));
const ManualModal = lazy(() => import('../image-opt/manual-modal').then((m) => ({ default: m.ManualModal })));
const FirstSetupModal = lazy(() => import('../image-opt/first-setup-modal').then((m) => ({ default: m.FirstSetupModal })));
const CompareModal = lazy(() => import('../image-opt/compare-modal').then((m) => ({ default: m.CompareModal })));
// What the screen shows one transition after its first render (<Later>), in chunks fetched from here on,
// while the first screen hydrates (hooks/lazy-part.ts, issue 26): the history table and the footer, which
// never shows before the table, so that the table does not push it down.
const below = lazyPart(() => import('../image-opt/below-stats').then((m) => m.BelowStats));
const footer = lazyPart(() => below.prefetch().then(() => import('../support/footer-help').then((m) => m.AppFooterHelp)));
void footer.prefetch();

type Dialog = 'none' | 'manual' | 'upload' | 'firstSetup' | 'sheet';

/** /image_optimisation. */
export function ImageOptimisationScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const info = useSettingInfo();
  const level = info?.shop_level ?? 0;
  const page = useImagePage();
  const [tab, setTab] = useState(0);
  // Auto mode: new and changed images are optimised in the background; the history follows every 3 s.
  const autoRefresh = !page.loading && page.data.settings.auto_switch === 1 && page.data.settings.is_default !== 1;
  const history = usePagedList(tab, 0, true, autoRefresh ? AUTO_HISTORY_REFRESH_MS : false);
  const [dialog, setDialog] = useState<Dialog>('none');
  // The first-setup dialog's code comes when it first opens; mounted from then on, it closes with
  // Polaris' transition.
  const [setupOpened, setSetupOpened] = useState(false);
  if (dialog === 'firstSetup' && !setupOpened) setSetupOpened(true);
  const [compare, setCompare] = useState<CompareImages | null>(null);
  const viewUpload = useViewUpload(setCompare);
  const { settings, totals, quota } = page.data;
  const isDefault = settings.is_default === 1;
  const usedUp = quotaUsedUp(quota);

  const reloadInfo = useReloadSettingInfo();
  // A job ended: the lists, and the shop's settings (the server asks for a review once the first
  // optimisation has finished).
  const afterJob = useCallback(() => {
    void history.reload();
    void page.reload();
    void reloadInfo();
  }, [history, page, reloadInfo]);
  const showPlanLimit = useSetAtom(planLimitAtom);
  // A job that stopped at the plan limit: the dialog offers the upgrade and the support requests.
  const progress = useOptProgress(afterJob, (message) =>
    showPlanLimit({ remaining: planLimitOf({ ack: 0, message }) ?? totals.un_opt_num }),
  );

  const started = (startedTab: number, from: StartedFrom = 'page') => {
    progress.watch(startedTab, from);
    setTab(startedTab);
  };
  const needsSetup = (then: Dialog) => setDialog(isDefault ? 'firstSetup' : then);
  const optimisedOnce = (totals.total_opt_num ?? 0) > 0;
  useWarmIntl();

  // The banners above the statistics depend on the shop's settings too: wait for them, so none pushes the cards
  // down after they were painted (issue 26). The page then renders in a transition, not inside the
  // synchronous update that brought the data, and what is below the statistics one transition later
  // (hooks/use-later.ts).
  const show = useReadyInTransition(!page.loading && !!info);
  if (!show)
    return (
      <SkeletonPage title={t('screens.imageOptimisation.title')} primaryAction>
        <BlockStack gap="400">
          <InlineStack gap="400" wrap={false}>
            {[0, 1, 2, 3].map((i) => (
              <div key={i} style={{ flex: 1 }}>
                <Card>
                  <SkeletonDisplayText size="small" />
                  <SkeletonBodyText lines={1} />
                </Card>
              </div>
            ))}
          </InlineStack>
          <Card>
            <SkeletonBodyText lines={8} />
          </Card>
        </BlockStack>
      </SkeletonPage>
    );

  return (
    <Page
      title={t('screens.imageOptimisation.title')}
      primaryAction={
        usedUp
          ? { content: t('planLimit.upgrade'), onAction: () => void navigate({ to: '/pricing' }) }
          : { content: t('imageOpt.header.manual'), onAction: () => needsSetup('manual') }
      }
      secondaryActions={
        <HeaderActions
          title={t('screens.imageOptimisation.title')}
          actions={[
            // Upload is there from the first visit; before the first set-up it asks for that first.
            { content: t('imageOpt.upload.title'), onAction: () => needsSetup('upload') },
            { content: t('imageOpt.sheet.title'), onAction: () => setDialog('sheet') },
          ]}
        />
      }
    >
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            <ReauthorizeModal />
            <PlanLimitBanner show={usedUp} remaining={totals.un_opt_num} />
            <OverageReminder show={usedUp && level > 0 && quota.is_over_quota !== 1} />
            {/* One banner at a time: the plan limit first, then the rating (only once an optimisation has
                finished: no rating prompt on a first visit), then the partner's offer. */}
            <ReviewBanner when={!usedUp && optimisedOnce} />
            <PartnerAdBanner when={!usedUp && !(optimisedOnce && info?.review_tips)} />
            <StatsCards totals={totals} quota={quota} level={level} />
            <Later>
              <Suspense fallback={null}>
                <below.Part
                  auto={{
                    isDefault,
                    on: settings.auto_switch === 1 && !isDefault,
                    onChanged: (on) => page.patchSettings({ auto_switch: on ? 1 : 0 }),
                    onNeedsSetup: () => setDialog('firstSetup'),
                    hasContent:
                      settings.image_opt.switch === 1 || settings.alt_text.switch === 1 || settings.file_name.switch === 1,
                    onOpenSettings: () => setDialog('sheet'),
                  }}
                  progress={progress}
                  history={{
                    tab,
                    onTab: setTab,
                    list: history,
                    onStarted: (startedTab) => started(startedTab, 'history'),
                    onView: viewUpload,
                  }}
                />
              </Suspense>
            </Later>
          </BlockStack>
        </Layout.Section>
      </Layout>
      <Later>
        <Suspense fallback={null}>
          <InlineStack align="center">
            <footer.Part />
          </InlineStack>
        </Suspense>
      </Later>
      {/* Only while a dialog is open: a boundary in the first render is one the browser hydrates after the
          screen, and the screen's own re-render right after hydrating (its hydrated values) would hand it new
          children before that, which React answers by throwing its markup away (#421). */}
      {(dialog === 'manual' || dialog === 'upload' || dialog === 'sheet' || compare) && (
        <Suspense fallback={null}>
          {dialog === 'manual' && <ManualModal open onClose={() => setDialog('none')} onStarted={started} />}
          {dialog === 'upload' && (
            <UploadModal
              open
              onClose={() => setDialog('none')}
              options={{ pngtojpg: settings.image_opt.pngtojpg, is_watermark: settings.image_opt.watermark.switch }}
              onStarted={() => started(3)}
            />
          )}
          {dialog === 'sheet' && (
            <SettingsSheet open firstTime={isDefault} onClose={() => setDialog('none')} onSaved={() => void page.reload()} />
          )}
          {compare && <CompareModal images={compare} onClose={() => setCompare(null)} />}
        </Suspense>
      )}
      {setupOpened && (
        <Suspense fallback={null}>
          <FirstSetupModal open={dialog === 'firstSetup'} onClose={() => setDialog('none')} onSetUp={() => setDialog('sheet')} />
        </Suspense>
      )}
    </Page>
  );
}
