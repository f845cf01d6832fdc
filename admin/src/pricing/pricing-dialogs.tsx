import { Text } from '@shopify/polaris';
import { useTranslation } from 'react-i18next';
import { Modal } from '../shell/modal';
import { InShopifyAdmin } from './in-shopify-admin';
import './strings';

/** The pricing screen's dialogs: a plan change needs the Shopify admin; a downgrade to Free asks first. */
export function PricingDialogs({
  inAdminOnly,
  onCloseInAdminOnly,
  confirmDowngrade,
  onCloseDowngrade,
  onDowngrade,
}: {
  inAdminOnly: boolean;
  onCloseInAdminOnly: () => void;
  confirmDowngrade: boolean;
  onCloseDowngrade: () => void;
  onDowngrade: () => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Modal open={inAdminOnly} onClose={() => onCloseInAdminOnly()} title={t('pricing.inAdmin.title')}>
        <Modal.Section>
          <InShopifyAdmin path="/pricing" />
        </Modal.Section>
      </Modal>
      <Modal
        open={confirmDowngrade}
        onClose={() => onCloseDowngrade()}
        title={t('pricing.downgradeModal.title')}
        primaryAction={{ content: t('pricing.downgradeModal.think'), onAction: () => onCloseDowngrade() }}
        secondaryActions={[
          {
            content: t('pricing.downgradeModal.continue'),
            destructive: true,
            onAction: () => {
              onCloseDowngrade();
              onDowngrade();
            },
          },
        ]}
      >
        <Modal.Section>
          <Text as="p">{t('pricing.downgradeModal.body')}</Text>
        </Modal.Section>
      </Modal>
    </>
  );
}
