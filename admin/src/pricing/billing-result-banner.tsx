import { Banner } from '@shopify/polaris';
import { useRouterState } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * After Shopify's approval page the Worker's billing return sends the merchant to /pricing with
 * `billing=approved|declined` and `kind=plan|cap`: this banner says what happened.
 */
export function BillingResultBanner() {
  const { t } = useTranslation();
  const search = useRouterState({ select: (s) => s.location.search as Record<string, unknown> });
  const [dismissed, setDismissed] = useState(false);
  const result = search.billing;
  if (dismissed || (result !== 'approved' && result !== 'declined')) return null;
  const kind = search.kind === 'cap' ? 'cap' : 'plan';
  const approved = result === 'approved';
  const key = `pricing.billingResult.${kind}${approved ? 'Approved' : 'Declined'}` as const;
  return (
    <Banner tone={approved ? 'success' : 'warning'} onDismiss={() => setDismissed(true)}>
      <p>{t(key)}</p>
    </Banner>
  );
}
