import { Text } from '@shopify/polaris';
import { Banner } from '../widgets/banner';
import { useTranslation } from 'react-i18next';
import { openTop } from '../lib/app-bridge';
import { Modal } from './modal';
import '../support/review-strings';

/**
 * The re-authorisation request (reauthorize-modal.tsx): the modal, then once closed the reminder banner.
 * Its own chunk, loaded for the old installs it is shown to (issue 26: first-screen JavaScript).
 */
export function ReauthorizeAsk({
  closed,
  shopOwner,
  onClose,
  onHide,
}: {
  closed: boolean;
  shopOwner: string;
  onClose: () => void;
  onHide: () => void;
}) {
  const { t } = useTranslation();
  if (closed)
    return (
      <Banner tone="warning" onDismiss={onHide}>
        <p>{t('main.reauth.closed')}</p>
      </Banner>
    );
  return (
    <Modal
      open
      title={t('main.reauth.title')}
      onClose={onClose}
      primaryAction={{
        content: t('main.reauth.action'),
        onAction: () => openTop(`/shopify/reShopifyAuthor?shop=${encodeURIComponent(shopOwner)}`),
      }}
    >
      <Modal.Section>
        <Text as="p">{t('main.reauth.body')}</Text>
      </Modal.Section>
    </Modal>
  );
}
