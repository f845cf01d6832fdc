import { BlockStack, Button, InlineStack, SkeletonBodyText, Text } from '@shopify/polaris';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImageSettings } from '../../../shared/image-settings';
import { ImageSettingsForm, useImageSettings } from '../image-settings';
import { AdminSaveBar } from '../image-settings/save-bar';
import { LeaveConfirm, LeaveGuard } from '../widgets/leave-guard';
import { useReadyInTransition } from '../hooks/use-later';
import './strings';

type Props = { open: boolean; firstTime: boolean; onClose: () => void; onSaved: (saved: ImageSettings) => void };

/**
 * The settings side sheet: 'First set up requirement' while settings are default, 'Settings' after.
 * Polaris 13 has no Sheet, so this is a fixed panel over the page with a backdrop.
 */
export function SettingsSheet({ open, firstTime, onClose, onSaved }: Props) {
  if (!open) return null;
  return <SheetBody firstTime={firstTime} onClose={onClose} onSaved={onSaved} />;
}

function SheetBody({ firstTime, onClose, onSaved }: Omit<Props, 'open'>) {
  const { t } = useTranslation();
  const settings = useImageSettings(onSaved);
  const title = firstTime ? t('imageOpt.sheet.firstTitle') : t('imageOpt.sheet.title');
  // Closing with unsaved edits asks Leave / Stay on this page, like leaving the page does.
  const [asking, setAsking] = useState(false);
  const close = () => (settings.dirty ? setAsking(true) : onClose());
  const save = () => void settings.save().then((ok) => ok && onClose());
  // The form renders in a transition, not inside the synchronous update that brought the settings
  // (issue 26: opening the sheet was one long task).
  const formShown = useReadyInTransition(!settings.loading);
  return (
    <>
      <LeaveGuard when={settings.dirty} />
      <AdminSaveBar
        show={settings.dirty}
        canSave={settings.canSave}
        saving={settings.saving}
        onSave={save}
        onDiscard={settings.reset}
      />
      {asking && <LeaveConfirm onLeave={onClose} onStay={() => setAsking(false)} />}
      <div onClick={close} style={{ position: 'fixed', inset: 0, background: 'rgba(0,0,0,.35)', zIndex: 510 }} />
      <div
        role="dialog"
        aria-modal="true"
        aria-label={title}
        style={{
          position: 'fixed',
          top: 0,
          right: 0,
          bottom: 0,
          width: 'min(560px, 100vw)',
          background: 'var(--p-color-bg-surface, #fff)',
          zIndex: 511,
          display: 'flex',
          flexDirection: 'column',
          boxShadow: '-4px 0 16px rgba(0,0,0,.15)',
        }}
      >
        <div style={{ padding: '16px 20px', borderBottom: '1px solid #e3e3e3' }}>
          <InlineStack align="space-between" blockAlign="center">
            <Text as="h2" variant="headingLg">
              {title}
            </Text>
            <Button variant="tertiary" onClick={close}>
              {t('imageOpt.sheet.close')}
            </Button>
          </InlineStack>
        </div>
        <div style={{ flex: 1, overflowY: 'auto', padding: 20 }}>
          <BlockStack gap="400">
            {/* The form's own banner says to finish the settings while they were never saved. */}
            {settings.loading || !formShown ? (
              <SkeletonBodyText lines={10} />
            ) : (
              <ImageSettingsForm
                value={settings.draft}
                onChange={settings.setDraft}
                showErrors={settings.showErrors}
                watermarkMissing={settings.watermarkMissing}
                fault={settings.fault}
              />
            )}
          </BlockStack>
        </div>
        <div style={{ padding: '12px 20px', borderTop: '1px solid #e3e3e3' }}>
          <InlineStack align="end" gap="200">
            <Button onClick={settings.reset} disabled={!settings.dirty || settings.saving}>
              {t('common.discard')}
            </Button>
            <Button variant="primary" onClick={save} disabled={!settings.canSave} loading={settings.saving}>
              {t('common.save')}
            </Button>
          </InlineStack>
        </div>
      </div>
    </>
  );
}
