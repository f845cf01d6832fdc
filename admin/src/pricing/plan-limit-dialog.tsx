import { Text } from '@shopify/polaris';
import { useAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../lib/intl';
import { planLimitAtom, useQuotaRequest } from './plan-limit';
import { Modal } from '../shell/modal';

export { planLimitAtom, planLimitOf, usePlanLimitRefusal, useQuotaRequest } from './plan-limit';

// 'Plan Limit Reached' with the two support requests. Both open the contact
// form prefilled with the request, which records it for customer service.

export function PlanLimitDialog({
  open,
  remaining,
  onClose,
  onUpgrade,
}: {
  open: boolean;
  remaining: number;
  onClose: () => void;
  onUpgrade?: () => void;
}) {
  const { t, i18n } = useTranslation();
  const request = useQuotaRequest();
  const ask = (kind: 'permission' | 'credits') => {
    onClose();
    request(kind, 'plan-limit');
  };
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={t('planLimit.title')}
      primaryAction={onUpgrade ? { content: t('planLimit.upgrade'), onAction: onUpgrade } : undefined}
      secondaryActions={[
        { content: t('planLimit.applyPermission'), onAction: () => ask('permission') },
        { content: t('planLimit.requestCredits'), onAction: () => ask('credits') },
      ]}
    >
      <Modal.Section>
        <Text as="p">{t('planLimit.reached')}</Text>
        <Text as="p" tone="subdued">
          {t('planLimit.remaining', { count: formatNumber(remaining, i18n.language) })}
        </Text>
      </Modal.Section>
    </Modal>
  );
}

/** Hosted once by the app shell. */
export function PlanLimitHost({ onUpgrade }: { onUpgrade: () => void }) {
  const [state, setState] = useAtom(planLimitAtom);
  return (
    <PlanLimitDialog
      open={state !== null}
      remaining={state?.remaining ?? 0}
      onClose={() => setState(null)}
      onUpgrade={() => {
        setState(null);
        onUpgrade();
      }}
    />
  );
}
