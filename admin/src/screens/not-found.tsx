import { Button, EmptyState } from '@shopify/polaris';
import { Page } from '../shell/page';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';

/** /404: every unknown path lands here. */
export function NotFoundScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Page>
      <EmptyState heading={t('notFound.title')} image="">
        <p>{t('notFound.body')}</p>
        <div style={{ marginTop: 16 }}>
          <Button variant="primary" onClick={() => void navigate({ to: '/main' })}>
            {t('common.goHome')}
          </Button>
        </div>
      </EmptyState>
    </Page>
  );
}
