import { BlockStack, InlineStack, Text } from '@shopify/polaris';
import { Badge } from '../widgets/badge';
import { useAtomValue } from 'jotai';
import { useRef, useState, lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { getAccount, saveAppSwitch } from '../api/calls';
import { useApiAction, useApiQuery } from '../api/query';
import { isEmbedded } from '../api/auth';
import { useToast } from '../hooks/use-toast';
import { formatNumber, formatPrice } from '../lib/intl';
import { levelAtom } from '../state/atoms';
import { SwitchToggle } from '../widgets/switch-toggle';
import { OVERAGE_CENTS_PER_1000 } from '../../../shared/plans';
import { Modal } from '../shell/modal';
import '../account/strings';

// Shown after a click outside the Shopify admin: fetched then (issue 26: first-screen JavaScript).
const loadInShopifyAdmin = () => import('./in-shopify-admin');
const InShopifyAdmin = lazy(() => loadInShopifyAdmin().then((m) => ({ default: m.InShopifyAdmin })));

type Account = { is_over_quota: number; is_capped: number; capped_amount: number };

/**
 * Overcharge: shown on only when over quota is allowed, the plan is capped and paid; disabled while
 * loading or when the plan is not capped. Switching it on lets Shopify bill usage charges, so it first
 * asks, with the price per 1,000 images and the cap (decisions.md, "Money shown is money charged"), and
 * only inside the Shopify admin (the Worker wants a session token); outside, it says where to do it.
 * Switching off applies at once. A change reverts unless the server answers ack 1.
 */
export function OverchargeSetting() {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const level = useAtomValue(levelAtom);
  const read = useApiQuery({
    key: ['account'],
    call: getAccount,
    select: (body): Account | null =>
      body.data
        ? {
            is_over_quota: Number(body.data.is_over_quota) || 0,
            is_capped: Number(body.data.is_capped) || 0,
            capped_amount: Number(body.data.capped_amount) || 0,
          }
        : null,
    errorToast: false,
  });
  // A change shows at once and reverts unless the server answers ack 1.
  const [shown, setShown] = useState<Account | null>(null);
  const [confirming, setConfirming] = useState(false);
  // Outside the admin the question says where it is answered: that part is fetched with the question.
  const confirm = () => {
    if (!isEmbedded()) void loadInShopifyAdmin();
    setConfirming(true);
  };
  const account = shown ?? read.data ?? { is_over_quota: 0, is_capped: 0, capped_amount: 0 };
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
  const language = i18n.language;
  const price = formatPrice(OVERAGE_CENTS_PER_1000 / 100, language);
  const cap = formatPrice(account.capped_amount, language);
  const capImages = formatNumber(Math.floor((account.capped_amount * 100) / OVERAGE_CENTS_PER_1000) * 1000, language);
  const embedded = isEmbedded();

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
          onChange={(v) => (v ? confirm() : void change(false))}
        />
      </InlineStack>
      <Text as="p" tone="subdued">
        {t('setting.overcharge.body', { price })}
      </Text>
      {!loading && (!capped || level <= 0) && (
        <Text as="p" variant="bodySm" tone="caution">
          {t('setting.overcharge.needsPaid')}
        </Text>
      )}
      <Modal
        open={confirming}
        onClose={() => setConfirming(false)}
        title={t('setting.overcharge.confirmTitle')}
        primaryAction={
          embedded
            ? {
                content: t('setting.overcharge.confirm'),
                onAction: () => {
                  setConfirming(false);
                  void change(true);
                },
              }
            : undefined
        }
        secondaryActions={[{ content: t('common.cancel'), onAction: () => setConfirming(false) }]}
      >
        <Modal.Section>
          <BlockStack gap="300">
            <Text as="p">{t('setting.overcharge.confirmBody', { price, cap, images: capImages })}</Text>
            {!embedded && (
              <Suspense fallback={null}>
                <InShopifyAdmin path="/setting" />
              </Suspense>
            )}
          </BlockStack>
        </Modal.Section>
      </Modal>
    </BlockStack>
  );
}
