import { Modal, Text } from '@shopify/polaris';
import { useBlocker } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';

/**
 * Asks before leaving a screen with unsaved changes (section 8): in-app navigation gets the Leave /
 * Stay on this page dialog, closing or reloading the tab gets the browser's own prompt.
 */
export function LeaveGuard({ when }: { when: boolean }) {
  const { t } = useTranslation();
  const blocker = useBlocker({ shouldBlockFn: () => when, withResolver: true, enableBeforeUnload: () => when });
  if (blocker.status !== 'blocked') return null;
  return (
    <Modal
      open
      title={t('leave.title')}
      onClose={blocker.reset}
      primaryAction={{ content: t('leave.leave'), destructive: true, onAction: blocker.proceed }}
      secondaryActions={[{ content: t('leave.stay'), onAction: blocker.reset }]}
    >
      <Modal.Section>
        <Text as="p">{t('leave.message')}</Text>
      </Modal.Section>
    </Modal>
  );
}
