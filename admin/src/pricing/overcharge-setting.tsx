import { Badge, BlockStack, InlineStack, Text } from '@shopify/polaris';
import { useAtomValue } from 'jotai';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getAccount, saveAppSwitch } from '../api/calls';
import { useApiAction, useApiQuery } from '../api/query';
import { useToast } from '../hooks/use-toast';
import { levelAtom } from '../state/atoms';
import { SwitchToggle } from '../widgets/switch-toggle';

/**
 * Overcharge: shown on only when over quota is allowed, the plan is capped and paid;
 * disabled while loading or when the plan is not capped; a change applies at once and reverts unless
 * the server answers ack 1 (toasts Succeed / Try again later).
 */
export function OverchargeSetting() {
  const { t } = useTranslation();
  const toast = useToast();
  const level = useAtomValue(levelAtom);
  const read = useApiQuery({
    key: ['account'],
    call: getAccount,
    select: (body) =>
      body.data ? { is_over_quota: Number(body.data.is_over_quota) || 0, is_capped: Number(body.data.is_capped) || 0 } : null,
    errorToast: false,
  });
  // A change shows at once and reverts unless the server answers ack 1.
  const [shown, setShown] = useState<{ is_over_quota: number; is_capped: number } | null>(null);
  const account = shown ?? read.data ?? { is_over_quota: 0, is_capped: 0 };
  const previous = useRef(account);
  const save = useApiAction((next: boolean) => saveAppSwitch('is_over_quota', next ? 1 : 0), {
    onSuccess: () => toast(t('setting.succeed')),
    onError: () => setShown(previous.current),
    ownMessage: true,
  });
  const loading = (read.loading && !read.error) || save.pending;

  const capped = account.is_capped === 1;
  const enabled = account.is_over_quota === 1 && capped && level > 0;
  const disabled = loading || !capped || level <= 0;

  const change = async (next: boolean) => {
    previous.current = account;
    setShown({ ...account, is_over_quota: next ? 1 : 0 });
    await save.run(next);
  };

  return (
    <BlockStack gap="200">
      <InlineStack align="space-between" blockAlign="center" wrap={false} gap="400">
        <InlineStack gap="200" blockAlign="center">
          <Text as="h3" variant="headingSm">
            {t('setting.overcharge.title')}
          </Text>
          <Badge tone={enabled ? 'success' : undefined}>
            {enabled ? t('setting.overcharge.enabled') : t('setting.overcharge.disabled')}
          </Badge>
        </InlineStack>
        <SwitchToggle
          label={t('setting.overcharge.title')}
          checked={enabled}
          disabled={disabled}
          onChange={(v) => void change(v)}
        />
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
