import { BlockStack, Button, Card, Text } from '@shopify/polaris';
import { useState, lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { raiseOverageCap } from '../api/calls';
import { messageOf } from '../api/client';
import { useApiAction } from '../api/query';
import { openTop } from '../lib/app-bridge';
import { formatPrice } from '../lib/intl';
import type { PricingData } from './pricing-data';
import { isEmbedded } from '../api/auth';
import './strings';

// Shown after a click outside the Shopify admin: fetched then (issue 26: first-screen JavaScript).
const InShopifyAdmin = lazy(() => import('./in-shopify-admin').then((m) => ({ default: m.InShopifyAdmin })));

/**
 * The usage cap of a paid plan (what overage may cost per 30 days) and the action that raises it:
 * Shopify's confirmation page approves the new cap (appSubscriptionLineItemUpdate), top frame.
 */
export function UsageCapCard({ data }: { data: PricingData }) {
  const { t, i18n } = useTranslation();
  // The merchant approves the new cap on Shopify's page (top frame); the button stays busy meanwhile.
  const [leaving, setLeaving] = useState(false);
  const raiseCap = useApiAction(raiseOverageCap, {
    onSuccess: (body) => {
      if (typeof body.url !== 'string' || !body.url) throw new Error(messageOf(body, t('common.tryAgainLater')));
      setLeaving(true);
      openTop(body.url);
    },
  });
  const busy = raiseCap.pending || leaving;
  // Outside the Shopify admin the new limit cannot be approved: say where to do it instead.
  const [inAdminOnly, setInAdminOnly] = useState(false);
  if (data.level <= 0 || data.capped_amount <= 0) return null;

  const raise = () => (isEmbedded() ? raiseCap.run() : setInAdminOnly(true));

  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h2" variant="headingMd">
          {t('pricing.usageCap.title')}
        </Text>
        <Text as="p">{t('pricing.usageCap.current', { amount: formatPrice(data.capped_amount, i18n.language) })}</Text>
        {data.next_capped_amount > 0 && (
          <>
            <Text as="p" tone="subdued">
              {t('pricing.usageCap.help')}
            </Text>
            <div>
              <Button onClick={() => void raise()} loading={busy}>
                {t('pricing.usageCap.raise', { amount: formatPrice(data.next_capped_amount, i18n.language) })}
              </Button>
            </div>
          </>
        )}
        {inAdminOnly && (
          <Suspense fallback={null}>
            <InShopifyAdmin path="/pricing" />
          </Suspense>
        )}
      </BlockStack>
    </Card>
  );
}
