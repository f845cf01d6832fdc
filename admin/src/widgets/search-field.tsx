import { Icon, Text } from '@shopify/polaris';
import { SearchIcon, XCircleIcon } from '@shopify/polaris-icons';
import { useId, useRef, useState, type MouseEvent } from 'react';
import { connectedStyles as connected, Labelled, textFieldStyles as styles, useI18n } from './polaris-parts';

// Polaris' <TextField> as a list's search box (hidden label, placeholder, a search icon before the text,
// a clear button while there is text), the only way the image page uses it on its first screen (issue
// 26: first-screen JavaScript; Polaris' TextField, with its multiline resizer, number spinner and
// character count, is about 4 KB gzipped more). The same markup and classes, the same focus classes
// (tests/admin/screen-markup.test.tsx).

type Props = { label: string; value: string; onChange: (value: string) => void; onClear: () => void };

const cx = (...names: (string | false)[]) => names.filter(Boolean).join(' ');

export function SearchField({ label, value, onChange, onClear }: Props) {
  const i18n = useI18n();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const prefix = useRef<HTMLDivElement>(null);
  const [focus, setFocus] = useState(false);
  const [itemFocused, setItemFocused] = useState(false);
  // A click elsewhere in the field (not the icon) puts the caret in the input, as Polaris' does.
  const clickField = (event: MouseEvent) => {
    const target = event.target as Node;
    if (focus || prefix.current?.contains(target) || input.current?.contains(target)) return;
    input.current?.focus();
  };
  return (
    <Labelled id={id} label={label} labelHidden>
      <div className={connected.Connected}>
        <div
          onBlur={() => setItemFocused(false)}
          onFocus={() => setItemFocused(true)}
          className={cx(connected.Item, itemFocused && connected['Item-focused'], connected['Item-primary'])}
        >
          <div className={cx(styles.TextField, value !== '' && styles.hasValue, focus && styles.focus)} onClick={clickField}>
            <div className={styles.Prefix} id={`${id}-Prefix`} ref={prefix}>
              <Text as="span" variant="bodyMd">
                <SearchIcon width={20} />
              </Text>
            </div>
            <input
              id={id}
              value={value}
              placeholder={label}
              autoComplete="off"
              className={cx(styles.Input, styles['Input-hasClearButton'])}
              ref={input}
              type="text"
              aria-labelledby={`${id}Label ${id}-Prefix`}
              aria-invalid={false}
              onFocus={() => setFocus(true)}
              onBlur={() => setFocus(false)}
              onChange={(e) => onChange(e.currentTarget.value)}
              data-1p-ignore
              data-lpignore
              data-form-type="other"
            />
            {value !== '' && (
              <button type="button" className={styles.ClearButton} onClick={onClear}>
                <Text as="span" visuallyHidden>
                  {i18n.translate('Polaris.Common.clear')}
                </Text>
                <Icon source={XCircleIcon} tone="base" />
              </button>
            )}
            <div className={styles.Backdrop} />
          </div>
        </div>
      </div>
    </Labelled>
  );
}
