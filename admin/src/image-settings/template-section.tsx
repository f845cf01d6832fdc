import { BlockStack, Checkbox, ChoiceList, Text } from '@shopify/polaris';
import { useTranslation } from 'react-i18next';
import type { AltTextSettings, FileNameSettings } from '../../../shared/image-settings';
import { hasScope } from '../lib/wizard-rules';
import type { TemplateScope } from '../lib/templates';
import { TemplateEditor } from './template-editor';
import { useTemplateSample } from './use-template-sample';
import './strings';

type Section = AltTextSettings | FileNameSettings;
const RULE = { product: 'product_rule', collection: 'collection_rule', blogs: 'blogs_rule' } as const;

type Props<S extends Section> = {
  kind: 'alt' | 'file';
  value: S;
  onChange: (next: S) => void;
  /** Scopes whose editor is marked empty. */
  invalid?: TemplateScope[];
  /** The wizard shows the switch itself; the settings form can hide it and show it as a card toggle. */
  showSwitch?: boolean;
  /** PNG to JPG is on: a PNG's file name preview ends in .jpg, as the optimiser names it. */
  convertsPng?: boolean;
};

/** Alt text or file name: the switch, the scopes (product radio 1/2/0, collection, blog) and an editor
 * per enabled scope with a live preview for one real item; alt text also offers "Only for images without
 * Alt text". */
export function TemplateSection<S extends Section>({
  kind,
  value,
  onChange,
  invalid = [],
  showSwitch = true,
  convertsPng = false,
}: Props<S>) {
  const { t } = useTranslation();
  const set = (patch: Partial<Section>) => onChange({ ...value, ...patch });
  const on = value.switch === 1;
  const prefix = kind === 'alt' ? 'imageSettings.alt' : 'imageSettings.file';
  // One real item of the shop per scope for the live preview under each editor.
  const samples = useTemplateSample();

  return (
    <BlockStack gap="300">
      {showSwitch && <Checkbox label={t(`${prefix}.switch`)} checked={on} onChange={(c) => set({ switch: c ? 1 : 0 })} />}
      {on && (
        <>
          <ChoiceList
            title={t('imageSettings.scope.productTitle')}
            choices={[
              { label: t(`${prefix}.productAll`), value: '1' },
              { label: t(`${prefix}.productPublished`), value: '2' },
              { label: t('imageSettings.scope.none'), value: '0' },
            ]}
            selected={[String(value.product)]}
            onChange={([v]) => set({ product: Number(v) as 0 | 1 | 2 })}
          />
          <Checkbox
            label={t(`${prefix}.collection`)}
            checked={value.collection === 1}
            onChange={(c) => set({ collection: c ? 1 : 0 })}
          />
          <Checkbox label={t(`${prefix}.blogs`)} checked={value.blogs === 1} onChange={(c) => set({ blogs: c ? 1 : 0 })} />
          {'blank_replace' in value && (
            <Checkbox
              label={t('imageSettings.alt.blankOnly')}
              checked={value.blank_replace === 1}
              onChange={(c) => onChange({ ...value, blank_replace: c ? 1 : 0 })}
            />
          )}
          {!hasScope(value) && (
            <Text as="p" tone="critical">
              {t('server.settings.needOneItem')}
            </Text>
          )}
          {(['product', 'collection', 'blogs'] as const)
            .filter((scope) => value[scope] !== 0)
            .map((scope) => (
              <TemplateEditor
                key={scope}
                scope={scope}
                label={t(`${prefix}.${scope}Template`)}
                value={value[RULE[scope]]}
                onChange={(rule) => set({ [RULE[scope]]: rule })}
                error={invalid.includes(scope)}
                area={kind}
                sample={
                  kind === 'file' && convertsPng && samples[scope].ext === 'png'
                    ? { ...samples[scope], ext: 'jpg' }
                    : samples[scope]
                }
              />
            ))}
        </>
      )}
    </BlockStack>
  );
}
