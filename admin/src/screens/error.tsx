import { Button, EmptyState } from '@shopify/polaris';
import { Page } from '../shell/page';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';

/** /error: the internal server error page with the documented text and a button to the product home. */
export function ErrorScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Page>
      <EmptyState heading={t('error.title')} image="">
        <p>{t('error.body')}</p>
        <div style={{ marginTop: 16 }}>
          <Button variant="primary" onClick={() => void navigate({ to: '/admin/preload' })}>
            {t('common.goHome')}
          </Button>
        </div>
      </EmptyState>
    </Page>
  );
}
