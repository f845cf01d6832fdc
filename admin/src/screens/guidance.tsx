import { Page, SkeletonBodyText, Card } from '@shopify/polaris';
import { useTranslation } from 'react-i18next';

// Frame of the screen; its issue fills in the content.
export function GuidanceScreen() {
  const { t } = useTranslation();
  return (
    <Page title={t('screens.guidance.title')}>
      <Card>
        <SkeletonBodyText lines={4} />
      </Card>
    </Page>
  );
}
