import { Banner, Modal, Text } from '@shopify/polaris';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getAppDashboardData } from '../api/calls';
import { isOk } from '../api/client';
import { useSettingInfo } from '../hooks/use-settings-info';
import { openTop } from '../lib/app-bridge';
import { isClosed, markClosed } from '../lib/session-flags';

const FLAG = 'reauthorize';

/**
 * Old installs (idOld 1 in the dashboard settings) are asked once per session to re-authorise so that
 * automatic optimisation gets the access it needs. Authorising sends the
 * browser (top frame) to /shopify/reShopifyAuthor; closing leaves the upgrade reminder.
 */
export function ReauthorizeModal() {
  const { t } = useTranslation();
  const info = useSettingInfo();
  const [state, setState] = useState<'hidden' | 'open' | 'closed'>('hidden');

  useEffect(() => {
    if (!info?.is_old || isClosed(FLAG)) return;
    let cancelled = false;
    getAppDashboardData()
      .then((body) => {
        const data = (body.data ?? {}) as { idOld?: number | string };
        if (!cancelled && isOk(body) && Number(data.idOld) === 1) setState('open');
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [info?.is_old]);

  if (state === 'hidden') return null;
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
      primaryAction={{ content: t('main.reauth.action'), onAction: () => openTop(`/shopify/reShopifyAuthor?shop=${encodeURIComponent(info?.shop_owner ?? '')}`) }}
    >
      <Modal.Section>
        <Text as="p">{t('main.reauth.body')}</Text>
      </Modal.Section>
    </Modal>
  );
}
