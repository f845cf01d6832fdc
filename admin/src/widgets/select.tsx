import { Box, Icon, Text } from '@shopify/polaris';
import { SelectIcon } from '@shopify/polaris-icons';
import { useId } from 'react';

// Polaris' Select for the screens' first paint (the dashboard's language, a list's page size; issue 26:
// first-screen JavaScript): a native <select> under Polaris' own markup (tests/admin/screen-markup.test.tsx),
// which works as it is, without Polaris' Select, Labelled, Label and InlineError modules (about 2 KB
// gzipped). What it takes of Polaris' props: a label (hidden or inline), plain options, a value.

type Option = { label: string; value: string };

type Props = {
  label: string;
  labelHidden?: boolean;
  labelInline?: boolean;
  options: Option[];
  value: string;
  onChange?: (value: string) => void;
  disabled?: boolean;
};

const classes = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ');

export function Select({ label, labelHidden, labelInline, options, value, onChange, disabled }: Props) {
  const id = useId();
  const selected = options.find((o) => o.value === value) ?? options[0];
  return (
    // Polaris' Labelled and Label
    <div
      className={classes((labelInline || labelHidden) && 'Polaris-Labelled--hidden', disabled && 'Polaris-Labelled--disabled')}
    >
      <div className="Polaris-Labelled__LabelWrapper">
        <div className="Polaris-Label">
          <label id={`${id}Label`} htmlFor={id} className="Polaris-Label__Text">
            <Text as="span" variant="bodyMd">
              {label}
            </Text>
          </label>
        </div>
      </div>
      <div className={classes('Polaris-Select', disabled && 'Polaris-Select--disabled')}>
        <select
          id={id}
          value={value}
          className="Polaris-Select__Input"
          disabled={disabled}
          onChange={onChange ? (e) => onChange(e.currentTarget.value) : undefined}
          aria-invalid={false}
        >
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        <div className="Polaris-Select__Content" aria-hidden aria-disabled={disabled}>
          {labelInline && (
            <Box paddingInlineEnd="100">
              <Text as="span" variant="bodyMd" tone="subdued" truncate>
                {label}
              </Text>
            </Box>
          )}
          <span className="Polaris-Select__SelectedOption">{selected?.label ?? ''}</span>
          <span className="Polaris-Select__Icon">
            <Icon source={SelectIcon} />
          </span>
        </div>
        <div className="Polaris-Select__Backdrop" />
      </div>
    </div>
  );
}
