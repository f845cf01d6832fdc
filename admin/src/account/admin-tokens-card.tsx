import { Badge, BlockStack, Button, InlineStack, Text } from '@shopify/polaris';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getAdminTokens, revokeAdminToken, type AdminTokenInfo } from '../api/calls';
import { isOk, messageOf } from '../api/client';
import { useToast } from '../hooks/use-toast';
import { formatDate } from '../image-opt/history-row-cells';

/**
 * Settings > Account: the shop's live admin tokens (authToken, for use outside Shopify's admin): who
 * issued each (the Shopify user) and when it expires, with Revoke. The token itself is never shown.
 */
export function AdminTokensCard() {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const [tokens, setTokens] = useState<AdminTokenInfo[] | null>(null);
  const [busy, setBusy] = useState<number | null>(null);

  const load = useCallback(async () => {
    try {
      const body = await getAdminTokens();
      setTokens(isOk(body) && Array.isArray(body.data) ? body.data : []);
    } catch {
      setTokens([]);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const revoke = async (id: number) => {
    setBusy(id);
    try {
      const body = await revokeAdminToken(id);
      if (!isOk(body)) throw new Error(messageOf(body, t('common.tryAgainLater')));
      toast(t('setting.tokens.revoked'));
      await load();
    } catch (err) {
      toast(err instanceof Error && err.message ? err.message : t('common.tryAgainLater'), { error: true });
    } finally {
      setBusy(null);
    }
  };

  return (
    <BlockStack gap="200">
      <Text as="h3" variant="headingSm">
        {t('setting.tokens.title')}
      </Text>
      <Text as="p" tone="subdued">
        {t('setting.tokens.body')}
      </Text>
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
              {t('setting.tokens.expires', { date: formatDate(token.expires_at, i18n.language) })}
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
