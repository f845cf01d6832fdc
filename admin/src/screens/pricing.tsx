import { BlockStack, Layout, SkeletonBodyText, Card } from '@shopify/polaris';
import { Banner } from '../widgets/banner';
import { Page } from '../shell/page';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changePlans, getPricingPlans } from '../api/calls';
import { messageOf } from '../api/client';
import { useApiAction, useApiQuery } from '../api/query';
import { AccountCard } from '../pricing/account-card';
import { BillingResultBanner } from '../pricing/billing-result-banner';
import { DiscountBanner } from '../pricing/discount-banner';
import { ImageSyncStatus } from '../pricing/image-sync-card';
import { FreePlanCard, PaidPlanCard } from '../pricing/plan-cards';
import { readPricing, type PricingData } from '../pricing/pricing-data';
import { UsageCapCard } from '../pricing/usage-cap-card';
import { priceLine } from '../pricing/price-line';
import { useTimeZone } from '../lib/intl';
import { isEmbedded } from '../api/auth';
import { useToast } from '../hooks/use-toast';
import { openTop } from '../lib/app-bridge';
import { msUntil } from '../lib/countdown';
import { paidPlans } from '../lib/plan-stepping';
import { useSetAtom } from 'jotai';
import { settingInfoAtom } from '../state/atoms';
import { Later, useReadyInTransition } from '../hooks/use-later';
import { useWarmIntl } from '../hooks/use-warm-intl';
import '../pricing/strings';

// The two dialogs (open in the Shopify admin, confirm a downgrade) are fetched the first time one opens
// (issue 26: first-screen JavaScript); they stay mounted after, so they close with Polaris' transition.
const PricingDialogs = lazy(() => import('../pricing/pricing-dialogs').then((m) => ({ default: m.PricingDialogs })));

/** /pricing: plans, quota selector, account info, discount countdown, downgrade confirmation. */
export function PricingScreen() {
  const { t, i18n } = useTranslation();
  const timeZone = useTimeZone();
  const toast = useToast();
  const setInfo = useSetAtom(settingInfoAtom);
  const [selected, setSelected] = useState(1);
  const [busy, setBusy] = useState<number | null>(null);
  const [confirmDowngrade, setConfirmDowngrade] = useState(false);

  const pricing = useApiQuery({ key: ['pricingPlans'], call: getPricingPlans, select: (body) => readPricing(body.data) });
  const data: PricingData | null = pricing.data ?? null;
  // Each answer preselects the shop's paid plan, or the first paid plan.
  useEffect(() => {
    if (!data) return;
    const first = paidPlans(data.plans)[0]?.level ?? 1;
    setSelected(data.level > 0 ? data.level : first);
  }, [data, pricing.updatedAt]);

  const changePlan = useApiAction(changePlans, {
    onSuccess: async (body, level) => {
      // A paid plan needs the merchant's approval on Shopify's page, which refuses to load in a frame.
      if (typeof body.url === 'string' && body.url) return openTop(body.url);
      // The documented success text is 'success' (shown as the merchant's 'Saved'); any other is the server's own.
      toast(body.msg && body.msg !== 'success' ? messageOf(body, t('common.saved')) : t('common.saved'));
      setInfo((i) => (i ? { ...i, shop_level: level } : i));
      await pricing.refetch();
      setBusy(null);
    },
    onError: () => setBusy(null),
  });
  const change = async (level: number) => {
    setBusy(level);
    await changePlan.run(level);
  };

  // Outside the Shopify admin a plan change cannot be approved (the Worker wants a session token): the
  // merchant is told so, with the way into the admin, instead of a refused call.
  const [inAdminOnly, setInAdminOnly] = useState(false);
  const [dialogsWanted, setDialogsWanted] = useState(false);
  if ((inAdminOnly || confirmDowngrade) && !dialogsWanted) setDialogsWanted(true);
  const choose = (level: number) =>
    !isEmbedded() ? setInAdminOnly(true) : level === 0 ? setConfirmDowngrade(true) : void change(level);
  const discountActive = data !== null && data.canDiscount && msUntil(data.rebate_info.expired_time, Date.now()) > 0;
  // The plans render in a transition, not inside the synchronous update that brought them, and the
  // account column one transition later (hooks/use-later.ts); the prices' formatters are built meanwhile.
  useWarmIntl();
  const shown = useReadyInTransition(data !== null);

  return (
    <Page title={t('pricing.title')}>
      <BillingResultBanner price={data?.current_price ? priceLine(data.current_price, t, i18n.language, timeZone) : null} />
      {!data || !shown ? (
        <Card>
          <SkeletonBodyText lines={8} />
        </Card>
      ) : (
        <BlockStack gap="400">
          {discountActive ? (
            <DiscountBanner
              expiresAt={data.rebate_info.expired_time}
              rate={data.rebate_info.rate}
              months={data.rebate_info.discount_period}
            />
          ) : (
            data.level === 0 && (
              <Banner tone="info" title={t('pricing.promo.title')}>
                <p>{t('pricing.promo.body')}</p>
              </Banner>
            )
          )}
          <ImageSyncStatus />
          <Layout>
            <Layout.Section variant="oneThird">
              <FreePlanCard plans={data.plans} current={data.level} busy={busy} onChoose={choose} />
            </Layout.Section>
            <Layout.Section variant="oneThird">
              <PaidPlanCard
                plans={data.plans}
                current={data.level}
                busy={busy}
                onChoose={choose}
                selected={selected}
                onSelect={setSelected}
                discount={discountActive}
                discountMonths={data.rebate_info.discount_period}
              />
            </Layout.Section>
            <Layout.Section variant="oneThird">
              <Later>
                <BlockStack gap="400">
                  <AccountCard data={data} />
                  <UsageCapCard data={data} />
                </BlockStack>
              </Later>
            </Layout.Section>
          </Layout>
        </BlockStack>
      )}
      {dialogsWanted && (
        <Suspense fallback={null}>
          <PricingDialogs
            inAdminOnly={inAdminOnly}
            onCloseInAdminOnly={() => setInAdminOnly(false)}
            confirmDowngrade={confirmDowngrade}
            onCloseDowngrade={() => setConfirmDowngrade(false)}
            onDowngrade={() => void change(0)}
          />
        </Suspense>
      )}
    </Page>
  );
}
