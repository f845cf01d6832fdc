import { Badge, BlockStack, InlineStack, Text } from '@shopify/polaris';
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getAccount, saveAppSwitch } from '../api/calls';
import { isOk } from '../api/client';
import { useToast } from '../hooks/use-toast';
import { levelAtom } from '../state/atoms';
import { SwitchToggle } from '../widgets/switch-toggle';

/**
 * Overcharge (section 4): shown on only when over quota is allowed, the plan is capped and paid;
 * disabled while loading or when the plan is not capped; a change applies at once and reverts unless
 * the server answers ack 1 (toasts Succeed / Try again later).
 */
export function OverchargeSetting() {
  const { t } = useTranslation();
  const toast = useToast();
  const level = useAtomValue(levelAtom);
  const [loading, setLoading] = useState(true);
  const [account, setAccount] = useState({ is_over_quota: 0, is_capped: 0 });

  useEffect(() => {
    let cancelled = false;
    getAccount()
      .then((body) => {
        if (!cancelled && isOk(body) && body.data) setAccount({ is_over_quota: Number(body.data.is_over_quota) || 0, is_capped: Number(body.data.is_capped) || 0 });
      })
      .catch(() => undefined)
      .finally(() => !cancelled && setLoading(false));
    return () => {
      cancelled = true;
    };
  }, []);

  const capped = account.is_capped === 1;
  const enabled = account.is_over_quota === 1 && capped && level > 0;
  const disabled = loading || !capped || level <= 0;

  const change = async (next: boolean) => {
    const previous = account;
    setAccount({ ...account, is_over_quota: next ? 1 : 0 });
    setLoading(true);
    try {
      const body = await saveAppSwitch('is_over_quota', next ? 1 : 0);
      if (!isOk(body)) throw new Error('refused');
      toast(t('setting.succeed'));
    } catch {
      setAccount(previous);
      toast(t('common.tryAgainLater'), { error: true });
    } finally {
      setLoading(false);
    }
  };

  return (
    <BlockStack gap="200">
      <InlineStack align="space-between" blockAlign="center" wrap={false} gap="400">
        <InlineStack gap="200" blockAlign="center">
          <Text as="h3" variant="headingSm">
            {t('setting.overcharge.title')}
          </Text>
          <Badge tone={enabled ? 'success' : undefined}>{enabled ? t('setting.overcharge.enabled') : t('setting.overcharge.disabled')}</Badge>
        </InlineStack>
        <SwitchToggle label={t('setting.overcharge.title')} checked={enabled} disabled={disabled} onChange={(v) => void change(v)} />
      </InlineStack>
      <Text as="p" tone="subdued">
        {t('setting.overcharge.body')}
      </Text>
      {!loading && (!capped || level <= 0) && (
        <Text as="p" variant="bodySm" tone="caution">
          {t('setting.overcharge.needsPaid')}
        </Text>
      )}
    </BlockStack>
  );
}
