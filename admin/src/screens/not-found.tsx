import { Page } from '../shell/page';
import { MessageState } from '../widgets/message-state';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';

/** /404: every unknown path lands here. */
export function NotFoundScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Page>
      <MessageState
        heading={t('notFound.title')}
        body={t('notFound.body')}
        action={t('common.goHome')}
        onAction={() => void navigate({ to: '/main' })}
      />
    </Page>
  );
}
