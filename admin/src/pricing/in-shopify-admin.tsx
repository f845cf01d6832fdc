import { BlockStack, Button, Text } from '@shopify/polaris';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { openTop } from '../lib/app-bridge';
import { settingInfoAtom } from '../state/atoms';
import './strings';

/**
 * Outside the Shopify admin (the standalone admin token) nothing that Shopify bills can be decided: plan
 * changes, the usage limit and overcharge need the merchant signed in to Shopify (a session token). This
 * says so and opens the same screen of the app inside the shop's Shopify admin.
 */
export function InShopifyAdmin({ path, body }: { path: string; body?: string }) {
  const { t } = useTranslation();
  const adminUrl = useAtomValue(settingInfoAtom)?.admin_url ?? '';
  return (
    <BlockStack gap="200" inlineAlign="start">
      <Text as="p">{body ?? t('pricing.inAdmin.body')}</Text>
      {adminUrl && (
        <Button variant="primary" onClick={() => openTop(`${adminUrl}${path}`)}>
          {t('pricing.inAdmin.open')}
        </Button>
      )}
    </BlockStack>
  );
}
