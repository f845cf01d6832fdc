import { Box, InlineStack, Text } from '@shopify/polaris';
import { useRef, type KeyboardEvent } from 'react';
import { TAB_CLASSES } from './nav-tab-classes';

// The standalone top tabs (outside Shopify's admin frame), and the tabs of screens with one or two fixed
// tabs (recommendations, image details). Polaris' <Tabs> brings its overflow menu, its "create view" modal
// with a text field and a measuring pass into the first screen's JavaScript; these bars only switch
// between a few fixed tabs that always fit, so they render the same markup and Polaris classes as Polaris'
// tabs (the same look, role="tablist" / role="tab" with aria-selected) without them (issue 26).

export type NavTab = { id: string; content: string };

export function NavTabs({ tabs, selected, onSelect }: { tabs: NavTab[]; selected: number; onSelect?: (index: number) => void }) {
  const list = useRef<HTMLUListElement>(null);
  // Arrow keys move the focus along the tabs (wrapping), Home / End to the ends, as Polaris' tabs do.
  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    const buttons = [...(list.current?.querySelectorAll<HTMLButtonElement>('[role="tab"]') ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (at === -1) return;
    const next =
      e.key === 'ArrowRight'
        ? (at + 1) % buttons.length
        : e.key === 'ArrowLeft'
          ? (at - 1 + buttons.length) % buttons.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? buttons.length - 1
              : -1;
    if (next === -1) return;
    e.preventDefault();
    buttons[next]?.focus();
  };
  return (
    <div className={TAB_CLASSES.outer}>
      <Box padding={{ md: '200' }}>
        <div className={TAB_CLASSES.wrapper}>
          <div className={TAB_CLASSES.buttons}>
            <ul ref={list} className={TAB_CLASSES.list} role="tablist" onKeyDown={onKeyDown}>
              {tabs.map((tab, i) => (
                <li key={tab.id} className={TAB_CLASSES.item} role="presentation">
                  <button
                    id={tab.id}
                    className={i === selected ? `${TAB_CLASSES.tab} ${TAB_CLASSES.active}` : TAB_CLASSES.tab}
                    role="tab"
                    type="button"
                    tabIndex={i === selected || (selected === -1 && i === 0) ? 0 : -1}
                    aria-selected={i === selected}
                    onClick={() => onSelect?.(i)}
                  >
                    <InlineStack gap="200" align="center" blockAlign="center" wrap={false}>
                      <Text as="span" variant="bodySm" fontWeight="medium">
                        {tab.content}
                      </Text>
                    </InlineStack>
                  </button>
                </li>
              ))}
            </ul>
          </div>
        </div>
      </Box>
    </div>
  );
}
