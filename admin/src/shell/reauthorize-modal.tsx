import { lazy, Suspense, useState } from 'react';
import { getAppDashboardData } from '../api/calls';
import { useApiQuery } from '../api/query';
import { useSettingInfo } from '../hooks/use-settings-info';
import { isClosed, markClosed } from '../lib/session-flags';

// What an old install is shown (a modal, then a reminder) is fetched once the read says it is one.
const ReauthorizeAsk = lazy(() => import('./reauthorize-ask').then((m) => ({ default: m.ReauthorizeAsk })));

const FLAG = 'reauthorize';

/**
 * Old installs (idOld 1 in the dashboard settings) are asked once per session to re-authorise so that
 * automatic optimisation gets the access it needs. Authorising sends the
 * browser (top frame) to /shopify/reShopifyAuthor; closing leaves the upgrade reminder.
 */
export function ReauthorizeModal() {
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
  const close = () => {
    markClosed(FLAG);
    setState('closed');
  };
  return (
    <Suspense fallback={null}>
      <ReauthorizeAsk
        closed={state === 'closed'}
        shopOwner={info?.shop_owner ?? ''}
        onClose={close}
        onHide={() => setState('hidden')}
      />
    </Suspense>
  );
}
