import {
  BlockStack,
  Box,
  Button,
  buttonFrom,
  InlineStack,
  Text,
  type ActionListItemDescriptor,
  type ComplexAction,
} from '@shopify/polaris';
import { ButtonGroup } from './button-group';
import { MenuHorizontalIcon } from '@shopify/polaris-icons';
import { lazy, startTransition, Suspense, useId, useRef, useState, type ReactNode } from 'react';
import { legacyCardStyles, mediaCardStyles as styles, useI18n, WithinContentContext } from '../shell/polaris-internals';

// Polaris' <MediaCard> (landscape) with its "more" menu loaded on demand (issue 26: first-screen
// JavaScript). Polaris' MediaCard always brings Popover, PositionedOverlay, ActionList and its filter
// TextField (about 16 KB gzipped) for a menu that opens only when the merchant asks. This card renders the
// same markup and classes (in Polaris' LegacyCard markup, whose footer menu it never has); the menu button is the same Polaris button, and its Popover + ActionList
// (widgets/media-card-menu.tsx) load as soon as the pointer or the focus reaches the button (a click
// before they arrive opens the menu when they do).

const MediaCardMenu = lazy(async () => ({ default: (await import('./media-card-menu')).MediaCardMenu }));

type Props = {
  title: string;
  description: string;
  children?: ReactNode;
  primaryAction?: ComplexAction;
  secondaryAction?: ComplexAction;
  popoverActions?: ActionListItemDescriptor[];
  size?: 'small' | 'medium';
};

const cx = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ');

export function MediaCard({ title, description, children, primaryAction, secondaryAction, popoverActions = [], size }: Props) {
  const i18n = useI18n();
  const [menuActive, setMenuActive] = useState(false);
  const [menuWanted, setMenuWanted] = useState(false);
  const focusId = useRef<string | undefined>(undefined);
  const buttonId = useId();
  const toggle = () => setMenuActive((v) => !v);
  // A transition: the closed button stays on screen (and keeps the focus) until the menu's code is there.
  const want = () => {
    if (menuWanted) return;
    focusId.current = document.activeElement?.id === buttonId ? buttonId : undefined;
    startTransition(() => setMenuWanted(true));
  };

  const activator = (
    <InlineStack blockAlign="center">
      <Button
        id={buttonId}
        icon={MenuHorizontalIcon}
        onClick={() => {
          want();
          toggle();
        }}
        size="slim"
        accessibilityLabel={i18n.translate('Polaris.MediaCard.popoverButton')}
        variant="tertiary"
      />
    </InlineStack>
  );
  // Before its code is there, the menu is its button in the Popover's wrapper, as Polaris renders it closed.
  const closedMenu = (
    <div onPointerEnter={want} onFocus={want} onTouchStart={want}>
      {activator}
    </div>
  );
  const menu =
    popoverActions.length > 0 ? (
      <Suspense fallback={closedMenu}>
        {menuWanted ? (
          <MediaCardMenu
            activator={activator}
            active={menuActive}
            onToggle={toggle}
            items={popoverActions}
            focusId={focusId.current}
          />
        ) : (
          closedMenu
        )}
      </Suspense>
    ) : null;

  const actions =
    primaryAction || secondaryAction ? (
      <div className={styles.ActionContainer}>
        <ButtonGroup>
          {primaryAction ? <div>{buttonFrom(primaryAction)}</div> : null}
          {secondaryAction ? <div>{buttonFrom(secondaryAction)}</div> : null}
        </ButtonGroup>
      </div>
    ) : null;

  return (
    // Polaris' LegacyCard around it, without the footer menu (Popover, ActionList) this card never has.
    <WithinContentContext.Provider value>
      <div className={legacyCardStyles.LegacyCard}>
        <div className={styles.MediaCard}>
          <div className={cx(styles.MediaContainer, size === 'small' && styles.sizeSmall)}>{children}</div>
          <div className={cx(styles.InfoContainer, size === 'small' && styles.sizeSmall)}>
            <Box padding="500">
              <BlockStack gap="200">
                <InlineStack wrap={false} align="space-between" gap="200">
                  <div>
                    <Text variant="headingSm" as="h2">
                      {title}
                    </Text>
                  </div>
                  {menu && (
                    <Box position="absolute" insetInlineEnd="500" zIndex="var(--p-z-index-2)">
                      <InlineStack gap="100" wrap={false}>
                        {menu}
                      </InlineStack>
                    </Box>
                  )}
                </InlineStack>
                <Text as="p" variant="bodySm">
                  {description}
                </Text>
                {actions}
              </BlockStack>
            </Box>
          </div>
        </div>
      </div>
    </WithinContentContext.Provider>
  );
}
