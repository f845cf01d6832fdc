import { BlockStack, Card, InlineStack, Text } from '@shopify/polaris';
import { Banner } from '../widgets/banner';
import { useTranslation } from 'react-i18next';
import { saveSettings } from '../api/calls';
import { useApiAction } from '../api/query';
import { SwitchToggle } from '../widgets/switch-toggle';
import './strings';

type Props = {
  isDefault: boolean;
  on: boolean;
  /** Automatic mode has something to do: compression, alt text or file names switched on. */
  hasContent: boolean;
  onChanged: (on: boolean) => void;
  onNeedsSetup: () => void;
  onOpenSettings: () => void;
};

/**
 * Auto-optimise: only once settings exist (is_default 1 opens the first-set-up modal instead); the
 * switch saves auto_switch alone.
 */
export function AutoOptimiseCard({ isDefault, on, hasContent, onChanged, onNeedsSetup, onOpenSettings }: Props) {
  const { t } = useTranslation();
  const save = useApiAction((next: boolean) => saveSettings({ auto_switch: next ? 1 : 0 }), {
    onSuccess: (_body, next) => onChanged(next),
  });
  const toggle = async (next: boolean) => {
    if (isDefault) {
      onNeedsSetup();
      return;
    }
    await save.run(next);
  };
  return (
    <Card>
      <InlineStack align="space-between" blockAlign="center" gap="400" wrap={false}>
        <BlockStack gap="100">
          <Text as="h2" variant="headingMd">
            {t('imageOpt.auto.title')}
          </Text>
          <Text as="p" tone="subdued">
            {on ? t('imageOpt.auto.on') : t('imageOpt.auto.off')}
          </Text>
        </BlockStack>
        <SwitchToggle
          checked={on}
          disabled={save.pending}
          label={t('imageOpt.auto.title')}
          onChange={(next) => void toggle(next)}
        />
      </InlineStack>
      {on && !hasContent && (
        // Automatic mode is on, but every kind of change is switched off (e.g. a wizard with every
        // image type unticked): nothing would ever be optimised automatically (the documented message).
        <div style={{ marginTop: 'var(--p-space-300)' }}>
          <Banner tone="warning" action={{ content: t('imageOpt.sheet.title'), onAction: onOpenSettings }}>
            <p>{t('imageOpt.auto.noContent')}</p>
          </Banner>
        </div>
      )}
    </Card>
  );
}
