import { BlockStack, Button, InlineStack, SkeletonBodyText, Text } from '@shopify/polaris';
import { useTranslation } from 'react-i18next';
import type { ImageSettings } from '../../../shared/image-settings';
import { LeaveGuard } from '../widgets/leave-guard';
import { ImageSettingsForm } from './image-settings-form';
import { AdminSaveBar } from './save-bar';
import { useImageSettings } from './use-image-settings';
import { WATERMARK_SIZE_MIN } from './watermark-section';
import { useReadyInTransition } from '../hooks/use-later';

/**
 * The whole settings editor: heading, Discard / Save (enabled only after a change, disabled while a
 * section has no scope), the form, and the leave guard for unsaved changes. Used on /setting, the older
 * settings page of the documents, where the watermark size slider starts at 1 % (the image page's sheet
 * renders the form itself, from 10 %).
 */
export function ImageSettingsPanel({ title, onSaved }: { title: string; onSaved?: (saved: ImageSettings) => void }) {
  const { t } = useTranslation();
  const settings = useImageSettings(onSaved);
  // The form renders in a transition, not inside the synchronous update that brought the settings (issue 26).
  const formShown = useReadyInTransition(!settings.loading);
  return (
    <BlockStack gap="400">
      <LeaveGuard when={settings.dirty} />
      <AdminSaveBar
        show={settings.dirty}
        canSave={settings.canSave}
        saving={settings.saving}
        onSave={() => void settings.save()}
        onDiscard={settings.reset}
      />
      <InlineStack align="space-between" blockAlign="center">
        <Text as="h2" variant="headingMd">
          {title}
        </Text>
        <InlineStack gap="200">
          <Button onClick={settings.reset} disabled={!settings.dirty || settings.saving}>
            {t('common.discard')}
          </Button>
          <Button variant="primary" onClick={() => void settings.save()} disabled={!settings.canSave} loading={settings.saving}>
            {t('common.save')}
          </Button>
        </InlineStack>
      </InlineStack>
      {settings.loading || !formShown ? (
        <SkeletonBodyText lines={8} />
      ) : (
        <ImageSettingsForm
          value={settings.draft}
          onChange={settings.setDraft}
          showErrors={settings.showErrors}
          watermarkMissing={settings.watermarkMissing}
          fault={settings.fault}
          watermarkMinPercent={WATERMARK_SIZE_MIN.olderPage}
        />
      )}
    </BlockStack>
  );
}
