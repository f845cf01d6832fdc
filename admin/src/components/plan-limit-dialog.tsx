import { Modal, Text } from '@shopify/polaris';
import { useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { contactFormAtom } from './contact-form';

// 'Plan Limit Reached' (section 8) with the two support requests of section 2. Both open the contact
// form prefilled with the request, which records it for customer service.
export function PlanLimitDialog({ open, remaining, onClose, onUpgrade }: { open: boolean; remaining: number; onClose: () => void; onUpgrade?: () => void }) {
  const { t } = useTranslation();
  const openContact = useSetAtom(contactFormAtom);
  const request = (kind: 'permission' | 'credits') => {
    onClose();
    openContact({
      title: t(kind === 'permission' ? 'planLimit.applyPermission' : 'planLimit.requestCredits'),
      description: t(kind === 'permission' ? 'planLimit.permissionMessage' : 'planLimit.creditsMessage'),
      path: `plan-limit/${kind}`,
    });
  };
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={t('planLimit.title')}
      primaryAction={onUpgrade ? { content: t('planLimit.upgrade'), onAction: onUpgrade } : undefined}
      secondaryActions={[
        { content: t('planLimit.applyPermission'), onAction: () => request('permission') },
        { content: t('planLimit.requestCredits'), onAction: () => request('credits') },
      ]}
    >
      <Modal.Section>
        <Text as="p">{t('planLimit.reached')}</Text>
        <Text as="p" tone="subdued">
          {t('planLimit.remaining', { count: remaining })}
        </Text>
      </Modal.Section>
    </Modal>
  );
}
