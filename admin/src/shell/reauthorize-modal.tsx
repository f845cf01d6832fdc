import { Banner, Text } from '@shopify/polaris';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getAppDashboardData } from '../api/calls';
import { useApiQuery } from '../api/query';
import { useSettingInfo } from '../hooks/use-settings-info';
import { openTop } from '../lib/app-bridge';
import { isClosed, markClosed } from '../lib/session-flags';
import { Modal } from './modal';
import '../page-speed/strings';

const FLAG = 'reauthorize';

/**
 * Old installs (idOld 1 in the dashboard settings) are asked once per session to re-authorise so that
 * automatic optimisation gets the access it needs. Authorising sends the
 * browser (top frame) to /shopify/reShopifyAuthor; closing leaves the upgrade reminder.
 */
export function ReauthorizeModal() {
  const { t } = useTranslation();
  const info = useSettingInfo();
  const [state, setState] = useState<'ask' | 'closed' | 'hidden'>('ask');

  // Asked only for old installs, once per session; a failed read shows nothing.
  const dashboard = useApiQuery({
    key: ['appDashboardData'],
    call: getAppDashboardData,
    select: (body) => Number(body.data?.idOld) === 1,
    enabled: !!info?.is_old && !isClosed(FLAG),
    errorToast: false,
  });
  const isOld = dashboard.data === true;

  if (state === 'hidden' || (state === 'ask' && !isOld)) return null;
  if (state === 'closed')
    return (
      <Banner tone="warning" onDismiss={() => setState('hidden')}>
        <p>{t('main.reauth.closed')}</p>
      </Banner>
    );
  const close = () => {
    markClosed(FLAG);
    setState('closed');
  };
  return (
    <Modal
      open
      title={t('main.reauth.title')}
      onClose={close}
      primaryAction={{
        content: t('main.reauth.action'),
        onAction: () => openTop(`/shopify/reShopifyAuthor?shop=${encodeURIComponent(info?.shop_owner ?? '')}`),
      }}
    >
      <Modal.Section>
        <Text as="p">{t('main.reauth.body')}</Text>
      </Modal.Section>
    </Modal>
  );
}
