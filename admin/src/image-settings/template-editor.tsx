import { BlockStack, Button, InlineStack, TextField } from '@shopify/polaris';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { insertPlaceholder, normaliseTemplate, PLACEHOLDERS, TEMPLATE_DEBOUNCE_MS, type TemplateScope } from '../lib/templates';

type Props = { scope: TemplateScope; label: string; value: string; onChange: (value: string) => void; error?: string | boolean };

/**
 * One alt-text / file-name template: a text field plus buttons that insert the scope's placeholders at
 * the caret. Typing reaches the form after a 100 ms pause with runs of whitespace collapsed; leaving the
 * field or inserting a placeholder also trims.
 */
export function TemplateEditor({ scope, label, value, onChange, error }: Props) {
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
        error={error === true ? t('server.settings.inputEmpty') : error || undefined}
      />
      <InlineStack gap="200">
        {PLACEHOLDERS[scope].map((p) => (
          <Button key={p} size="slim" onClick={() => insert(p)}>
            {t(`imageSettings.placeholder.${p.replace(/%/g, '')}`)}
          </Button>
        ))}
      </InlineStack>
    </BlockStack>
  );
}
