import { Text } from '@shopify/polaris';
import { useBlocker } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Modal } from '../shell/modal';

/**
 * Asks before leaving a screen with unsaved changes: in-app navigation gets the Leave /
 * Stay on this page dialog, closing or reloading the tab gets the browser's own prompt.
 */
export function LeaveGuard({ when }: { when: boolean }) {
  const blocker = useBlocker({ shouldBlockFn: () => when, withResolver: true, enableBeforeUnload: () => when });
  if (blocker.status !== 'blocked') return null;
  return <LeaveConfirm onLeave={blocker.proceed} onStay={blocker.reset} />;
}

/** The Leave / Stay on this page question itself, also asked when a sheet with unsaved edits closes. */
export function LeaveConfirm({ onLeave, onStay }: { onLeave: () => void; onStay: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      title={t('leave.title')}
      onClose={onStay}
      primaryAction={{ content: t('leave.leave'), destructive: true, onAction: onLeave }}
      secondaryActions={[{ content: t('leave.stay'), onAction: onStay }]}
    >
      <Modal.Section>
        <Text as="p">{t('leave.message')}</Text>
      </Modal.Section>
    </Modal>
  );
}
