import { Page, SkeletonBodyText, Card } from '@shopify/polaris';
import { useTranslation } from 'react-i18next';

// Frame of the screen; its issue fills in the content.
export function PrivacyPolicyScreen() {
  const { t } = useTranslation();
  return (
    <Page title={t('screens.privacyPolicy.title')}>
      <Card>
        <SkeletonBodyText lines={4} />
      </Card>
    </Page>
  );
}
