import { BlockStack, Box, InlineStack, Text } from '@shopify/polaris';
import { useId } from 'react';
import { actionListStyles as styles, handleMouseUpByBlurring } from './polaris-parts';

// Polaris' <ActionList items={...}> for a short list of plain buttons, one of them active (the settings
// screen's section menu; issue 26: first-screen JavaScript). Polaris' ActionList brings its filter
// TextField, Tooltip, Badge, Scrollable and keyboard listeners (about 10 KB gzipped) for a list that uses
// none of them: this renders the same markup and classes (tests/admin/screen-markup.test.tsx). The
// active item's empty anchor is Polaris' Scrollable.ScrollTo, which scrolls only inside a Scrollable.

export type SectionMenuItem = {
  content: string;
  active: boolean;
  onAction: () => void;
  /** The pointer or the focus reached the item (its section's code can be fetched ahead of the click). */
  onIntent?: () => void;
};

const cx = (...names: (string | false)[]) => names.filter(Boolean).join(' ');

export function SectionMenu({ items }: { items: SectionMenuItem[] }) {
  return (
    <Box>
      <Box padding="150" tabIndex={-1}>
        <BlockStack gap="050" as="ul">
          {items.map((item, index) => (
            <Box as="li" key={`${item.content}-${index}`}>
              <InlineStack wrap={false}>
                <Item {...item} />
              </InlineStack>
            </Box>
          ))}
        </BlockStack>
      </Box>
    </Box>
  );
}

function Item({ content, active, onAction, onIntent }: SectionMenuItem) {
  const anchor = useId();
  const weight = active ? 'semibold' : 'regular';
  return (
    <>
      {active && <a id={anchor} />}
      <button
        type="button"
        className={cx(styles.Item, active && styles.active, styles.default)}
        onClick={onAction}
        onMouseUp={handleMouseUpByBlurring}
        onPointerEnter={onIntent}
        onFocus={onIntent}
      >
        <Box width="100%">
          <InlineStack blockAlign="center" gap="150" wrap={false}>
            <span className={styles.Text}>
              <Text as="span" variant="bodyMd" fontWeight={weight}>
                <Text as="span" variant="bodyMd" fontWeight={weight}>
                  {content}
                </Text>
              </Text>
            </span>
          </InlineStack>
        </Box>
      </button>
    </>
  );
}
