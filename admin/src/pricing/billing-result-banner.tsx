import { Banner } from '../widgets/banner';
import { useRouterState } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import './strings';

/**
 * After Shopify's approval page the Worker's billing return sends the merchant to /pricing with
 * `billing=approved|declined` and `kind=plan|cap`: this banner says what happened, and for an approved
 * plan what Shopify now bills ("$3.99 for 3 months, then $4.99").
 */
export function BillingResultBanner({ price }: { price?: string | null }) {
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
      <p>{approved && kind === 'plan' && price ? t('pricing.billingResult.planApprovedPrice', { price }) : t(key)}</p>
    </Banner>
  );
}
