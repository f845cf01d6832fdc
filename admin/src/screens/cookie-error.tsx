import { BlockStack, Card, List, Text } from '@shopify/polaris';
import { Page } from '../shell/page';
import { useTranslation } from 'react-i18next';

/** /cookieError: the app needs cookies for 30 days; on iOS cross-site tracking prevention must be off. */
export function CookieErrorScreen() {
  const { t } = useTranslation();
  return (
    <Page narrowWidth title={t('cookie.title')}>
      <Card>
        <BlockStack gap="300">
          <Text as="p">{t('cookie.body')}</Text>
          <List type="number">
            <List.Item>{t('cookie.stepBrowser')}</List.Item>
            <List.Item>{t('cookie.stepIos')}</List.Item>
            <List.Item>{t('cookie.stepReload')}</List.Item>
          </List>
        </BlockStack>
      </Card>
    </Page>
  );
}
