import { Page } from '../shell/page';
import { MessageState } from '../widgets/message-state';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';

/** /error: the internal server error page with the documented text and a button to the product home. */
export function ErrorScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Page>
      <MessageState
        heading={t('error.title')}
        body={t('error.body')}
        action={t('common.goHome')}
        onAction={() => void navigate({ to: '/admin/preload' })}
      />
    </Page>
  );
}
