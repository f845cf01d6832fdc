import { Text } from '@shopify/polaris';
import { useTranslation } from 'react-i18next';
import { Modal } from '../shell/modal';
import './strings';

/** Settings were never saved: optimisation needs them first. */
export function FirstSetupModal({ open, onClose, onSetUp }: { open: boolean; onClose: () => void; onSetUp: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={t('imageOpt.sheet.firstTitle')}
      primaryAction={{ content: t('imageOpt.firstSetup.action'), onAction: onSetUp }}
      secondaryActions={[{ content: t('common.cancel'), onAction: onClose }]}
    >
      <Modal.Section>
        <Text as="p">{t('imageOpt.firstSetup.body')}</Text>
      </Modal.Section>
    </Modal>
  );
}
