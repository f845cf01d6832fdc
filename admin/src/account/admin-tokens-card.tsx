import { BlockStack, Button, InlineStack, Text } from '@shopify/polaris';
import { Badge } from '../widgets/badge';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createAdminToken, getAdminTokens, revokeAdminToken, type AdminTokenInfo } from '../api/calls';
import { isEmbedded } from '../api/auth';
import { useApiAction, useApiQuery } from '../api/query';
import { useToast } from '../hooks/use-toast';
import { formatDateTime as formatDate, useTimeZone } from '../lib/intl';
import './strings';

// Shown after a click outside the Shopify admin: fetched then (issue 26: first-screen JavaScript).
const InShopifyAdmin = lazy(() => import('../pricing/in-shopify-admin').then((m) => ({ default: m.InShopifyAdmin })));

// The new token's field is the card's only TextField (about 5 KB gzipped): fetched when Create is pressed,
// alongside the call, and shown with the token (issue 26: first-screen JavaScript).
const loadLink = () => import('./created-token-link');
const CreatedTokenLink = lazy(async () => ({ default: (await loadLink()).CreatedTokenLink }));

/**
 * Settings > Account: the shop's live admin tokens (authToken, for use outside Shopify's admin): who
 * issued each (the Shopify user) and when it expires, with Revoke, and Create inside the admin (the
 * Worker wants a session token): the new token's link is shown once, never again.
 */
export function AdminTokensCard() {
  const { t, i18n } = useTranslation();
  const timeZone = useTimeZone();
  const toast = useToast();
  const list = useApiQuery({
    key: ['adminTokens'],
    call: getAdminTokens,
    select: (body) => (Array.isArray(body.data) ? body.data : []),
    errorToast: false,
  });
  // A failed read shows the empty list.
  const tokens: AdminTokenInfo[] | null = list.error ? [] : (list.data ?? null);
  const [busy, setBusy] = useState<number | null>(null);
  const revokeAction = useApiAction(revokeAdminToken, {
    onSuccess: async () => {
      toast(t('setting.tokens.revoked'));
      await list.refetch();
    },
    onSettled: () => setBusy(null),
  });
  // A new token is bought with a session token (the merchant inside the admin); its link shows once.
  const [created, setCreated] = useState<string | null>(null);
  const [inAdminOnly, setInAdminOnly] = useState(false);
  const createAction = useApiAction(createAdminToken, {
    onSuccess: async (body) => {
      if (body.data?.authToken) setCreated(`${window.location.origin}/main?authToken=${body.data.authToken}`);
      await list.refetch();
    },
  });
  const create = () => {
    if (!isEmbedded()) return setInAdminOnly(true);
    void loadLink();
    return createAction.run();
  };
  const revoke = (id: number) => {
    setBusy(id);
    return revokeAction.run(id);
  };

  return (
    <BlockStack gap="200">
      <Text as="h3" variant="headingSm">
        {t('setting.tokens.title')}
      </Text>
      <Text as="p" tone="subdued">
        {t('setting.tokens.body')}
      </Text>
      <InlineStack>
        <Button onClick={() => void create()} loading={createAction.pending}>
          {t('setting.tokens.create')}
        </Button>
      </InlineStack>
      {inAdminOnly && (
        <Suspense fallback={null}>
          <InShopifyAdmin path="/setting" body={t('setting.tokens.inAdmin')} />
        </Suspense>
      )}
      {created && (
        <Suspense fallback={null}>
          <BlockStack gap="100">
            <Text as="p">{t('setting.tokens.created')}</Text>
            <CreatedTokenLink label={t('setting.tokens.link')} link={created} />
          </BlockStack>
        </Suspense>
      )}
      {tokens && tokens.length === 0 && <Text as="p">{t('setting.tokens.empty')}</Text>}
      {(tokens ?? []).map((token) => (
        <InlineStack key={token.id} align="space-between" blockAlign="center" gap="300" wrap={false}>
          <BlockStack gap="050">
            <InlineStack gap="200" blockAlign="center">
              <Text as="span" variant="bodyMd" fontWeight="semibold">
                {token.user_id ? t('setting.tokens.user', { id: token.user_id }) : t('setting.tokens.unknownUser')}
              </Text>
              {token.current && <Badge tone="info">{t('setting.tokens.current')}</Badge>}
            </InlineStack>
            <Text as="span" variant="bodySm" tone="subdued">
              {t('setting.tokens.expires', { date: formatDate(token.expires_at, i18n.language, timeZone) })}
            </Text>
          </BlockStack>
          <Button tone="critical" variant="plain" loading={busy === token.id} onClick={() => void revoke(token.id)}>
            {t('setting.tokens.revoke')}
          </Button>
        </InlineStack>
      ))}
    </BlockStack>
  );
}
