import { BlockStack, Box, Button, InlineStack, Text, TextField } from '@shopify/polaris';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { unknownPlaceholders } from '../../../shared/image-settings-base';
import { previewTemplate } from '../../../shared/templates';
import { insertPlaceholder, normaliseTemplate, PLACEHOLDERS, TEMPLATE_DEBOUNCE_MS, type TemplateScope } from '../lib/templates';
import type { PreviewSample } from './use-template-sample';
import './strings';

type Props = {
  scope: TemplateScope;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | boolean;
  /** Alt text or file name: what the live preview shows. */
  area?: 'alt' | 'file';
  /** The item the live preview renders the template for (none: no preview). */
  sample?: PreviewSample;
};

const SAMPLE_NOTE = {
  product: 'imageSettings.preview.sampleProduct',
  collection: 'imageSettings.preview.sampleCollection',
  blogs: 'imageSettings.preview.sampleBlogs',
} as const;

/**
 * One alt-text / file-name template: a text field plus buttons that insert the scope's placeholders at
 * the caret. Typing reaches the form after a 100 ms pause with runs of whitespace collapsed; leaving the
 * field or inserting a placeholder also trims.
 */
export function TemplateEditor({ scope, label, value, onChange, error, area = 'alt', sample }: Props) {
  const { t } = useTranslation();
  const [text, setText] = useState(value);
  const caret = useRef<number | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const id = `template-${label.replace(/\W+/g, '-')}-${scope}`;

  // Outside changes (reset after save, defaults) replace the local text.
  useEffect(() => setText(value), [value]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const emit = (next: string, delay: number) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => onChange(next), delay);
  };
  const type = (next: string) => {
    setText(next);
    emit(next.replace(/\s+/g, ' '), TEMPLATE_DEBOUNCE_MS);
  };
  const insert = (placeholder: string) => {
    const next = insertPlaceholder(text, placeholder, caret.current ?? text.length);
    setText(next);
    caret.current = null;
    emit(next, 0);
  };
  const trackCaret = () => {
    const el = document.getElementById(id) as HTMLInputElement | null;
    caret.current = el?.selectionStart ?? null;
  };

  // The Worker's placeholder rule, checked as the merchant types: the same message it would refuse with.
  const unknown = unknownPlaceholders(text, scope);
  const message =
    unknown.length > 0
      ? t('server.settings.unknownPlaceholder', { names: unknown.join(', ') })
      : error === true
        ? t('server.settings.inputEmpty')
        : error || undefined;

  return (
    <BlockStack gap="200">
      <TextField
        id={id}
        label={label}
        value={text}
        onChange={type}
        onBlur={() => {
          // Synchronous: blur comes before the click on Next, whose check must see this text.
          trackCaret();
          clearTimeout(timer.current);
          const tidy = normaliseTemplate(text);
          if (tidy !== text) setText(tidy);
          onChange(tidy);
        }}
        autoComplete="off"
        error={message}
      />
      <InlineStack gap="200">
        {PLACEHOLDERS[scope].map((p) => (
          <Button key={p} size="slim" onClick={() => insert(p)}>
            {t(`imageSettings.placeholder.${p.replace(/%/g, '')}`)}
          </Button>
        ))}
      </InlineStack>
      {sample && <TemplatePreview area={area} scope={scope} text={text} sample={sample} />}
    </BlockStack>
  );
}

/** What the template gives one real item of the shop, rendered by the Worker's own code as the merchant types. */
function TemplatePreview({
  area,
  scope,
  text,
  sample,
}: {
  area: 'alt' | 'file';
  scope: TemplateScope;
  text: string;
  sample: PreviewSample;
}) {
  const { t } = useTranslation();
  const value = previewTemplate(area, text, sample.ctx, sample.ext);
  const shown = value !== '' ? value : t(area === 'alt' ? 'imageSettings.preview.emptyAlt' : 'imageSettings.preview.emptyFile');
  return (
    <Box background="bg-surface-secondary" padding="200" borderRadius="200">
      <BlockStack gap="100">
        <Text as="p" variant="bodySm" tone="subdued">
          {sample.title !== null ? t('imageSettings.preview.for', { title: sample.title }) : t(SAMPLE_NOTE[scope])}
        </Text>
        <Text as="p" variant="bodySm" breakWord>
          {t(area === 'alt' ? 'imageSettings.preview.alt' : 'imageSettings.preview.file', { value: shown })}
        </Text>
      </BlockStack>
    </Box>
  );
}
