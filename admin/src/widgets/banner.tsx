import { BlockStack, Box, Button, Icon, InlineStack, Text, useBreakpoints } from '@shopify/polaris';
import { ButtonGroup } from './button-group';
import { AlertDiamondIcon, AlertTriangleIcon, CheckIcon, InfoIcon, XIcon } from '@shopify/polaris-icons';
import { useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { useI18n, WithinContentContext } from '../shell/polaris-internals';
import { BannerContext, bannerStyles as styles } from './polaris-parts';

// Polaris' Banner for the screens' first paint (the dashboard's, the image pages' and the plans screen's
// banners; issue 26: first-screen JavaScript): the same markup and classes as Polaris' Banner in its three
// layouts (tests/admin/screen-markup.test.tsx), the same keyboard focus ring, the same alignment of a
// one-line text beside its icon, and the same context for what it holds (a Link in it is monochrome), with
// the Box, stacks, Text, Icon and Button the entry holds anyway, without Polaris' Banner and event-listener
// modules (about 1 KB gzipped). What it takes of Polaris' props: a tone, a title,
// children, a dismiss handler, an action and a secondary action ({ content, onAction }).

type Tone = 'success' | 'info' | 'warning' | 'critical';
type Action = { content: string; onAction?: () => void };

type Props = {
  tone?: Tone;
  title?: string;
  children?: ReactNode;
  onDismiss?: () => void;
  action?: Action;
  secondaryAction?: Action;
};

// Polaris' bannerAttributes (Banner/utilities.js)
const TONES = {
  success: ['success', CheckIcon],
  warning: ['warning', AlertTriangleIcon],
  critical: ['critical', AlertDiamondIcon],
  info: ['info', InfoIcon],
} as const;

const classes = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ');

export function Banner({ tone = 'info', title, children, onDismiss, action, secondaryAction }: Props) {
  const within = useContext(WithinContentContext);
  const i18n = useI18n();
  // Polaris' useBannerFocus: the focus ring shows after a keyboard focus, not after a click
  const wrapper = useRef<HTMLDivElement>(null);
  const [keyFocused, setKeyFocused] = useState(false);
  const [name, icon] = TONES[tone] ?? TONES.info;
  // the token names Polaris' Box and the icon class take (bg-fill-info / bg-surface-info, ...)
  const background = (within ? `bg-surface-${name}` : `bg-fill-${name}`) as 'bg-fill-info';
  const text = (within ? `text-${name}` : `text-${name}-on-bg-fill`) as 'text-info';
  const inline = !title && !within;
  const shared: Parts = {
    background,
    text,
    title: title ? (
      <Text as="h2" variant="headingSm" breakWord>
        {title}
      </Text>
    ) : null,
    icon: (
      <span className={styles[text]}>
        <Icon source={icon} />
      </span>
    ),
    actions:
      action || secondaryAction ? (
        <ButtonGroup>
          {action && <Button onClick={action.onAction}>{action.content}</Button>}
          {secondaryAction && <Button onClick={secondaryAction.onAction}>{secondaryAction.content}</Button>}
        </ButtonGroup>
      ) : null,
    dismiss: onDismiss ? (
      <Button
        variant="tertiary"
        icon={
          <span className={styles[inline ? 'icon-secondary' : text]}>
            <Icon source={XIcon} />
          </span>
        }
        onClick={onDismiss}
        accessibilityLabel={i18n.translate('Polaris.Banner.dismissButton')}
      />
    ) : null,
    children: children ? (
      <Text as="span" variant="bodyMd">
        {children}
      </Text>
    ) : null,
  };
  return (
    <BannerContext.Provider value>
      <div
        className={classes(
          styles.Banner,
          keyFocused && styles.keyFocused,
          within ? styles.withinContentContainer : styles.withinPage,
        )}
        tabIndex={0}
        ref={wrapper}
        role={tone === 'warning' || tone === 'critical' ? 'alert' : 'status'}
        aria-live="polite"
        onMouseUp={(e) => {
          e.currentTarget.blur();
          setKeyFocused(false);
        }}
        onKeyUp={(e) => {
          if (e.target === wrapper.current) setKeyFocused(true);
        }}
        onBlur={() => setKeyFocused(false)}
      >
        {within ? <WithinContentBanner {...shared} /> : inline ? <InlineIconBanner {...shared} /> : <DefaultBanner {...shared} />}
      </div>
    </BannerContext.Provider>
  );
}

type Parts = {
  background: 'bg-fill-info';
  text: 'text-info';
  title: ReactNode;
  icon: ReactNode;
  actions: ReactNode;
  dismiss: ReactNode;
  children: ReactNode;
};

function DefaultBanner({ background, text, title, icon, actions, dismiss, children }: Parts) {
  const { smUp } = useBreakpoints();
  const hasContent = children || actions;
  return (
    <Box width="100%">
      <BlockStack align="space-between">
        <Box
          background={background}
          color={text}
          borderStartStartRadius={smUp ? '300' : undefined}
          borderStartEndRadius={smUp ? '300' : undefined}
          borderEndStartRadius={!hasContent && smUp ? '300' : undefined}
          borderEndEndRadius={!hasContent && smUp ? '300' : undefined}
          padding="300"
        >
          <InlineStack align="space-between" blockAlign="center" gap="200" wrap={false}>
            <InlineStack gap="100" wrap={false}>
              {icon}
              {title}
            </InlineStack>
            {dismiss}
          </InlineStack>
        </Box>
        {hasContent && (
          <Box padding={{ xs: '300', md: '400' }} paddingBlockStart="300">
            <BlockStack gap="200">
              <div>{children}</div>
              {actions}
            </BlockStack>
          </Box>
        )}
      </BlockStack>
    </Box>
  );
}

function InlineIconBanner({ background, icon, actions, dismiss, children }: Parts) {
  // Polaris: the icon beside the first line of a text longer than one line, centred beside a shorter one
  const [blockAlign, setBlockAlign] = useState<'center' | 'start'>('center');
  const content = useRef<HTMLDivElement>(null);
  const iconNode = useRef<HTMLDivElement>(null);
  const dismissNode = useRef<HTMLDivElement>(null);
  const measure = useCallback(() => {
    const contentHeight = content.current?.offsetHeight;
    const iconHeight = iconNode.current?.offsetHeight || dismissNode.current?.offsetHeight;
    if (!contentHeight || !iconHeight) return;
    setBlockAlign(contentHeight > iconHeight ? 'start' : 'center');
  }, []);
  useEffect(() => {
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [measure]);
  return (
    <Box width="100%" padding="300" borderRadius="300">
      <InlineStack align="space-between" blockAlign={blockAlign} wrap={false}>
        <Box width="100%">
          <InlineStack gap="200" wrap={false} blockAlign={blockAlign}>
            <div ref={iconNode}>
              <Box background={background} borderRadius="200" padding="100">
                {icon}
              </Box>
            </div>
            <Box ref={content} width="100%">
              <BlockStack gap="200">
                <div>{children}</div>
                {actions}
              </BlockStack>
            </Box>
          </InlineStack>
        </Box>
        <div ref={dismissNode} className={styles.DismissIcon}>
          {dismiss}
        </div>
      </InlineStack>
    </Box>
  );
}

function WithinContentBanner({ background, text, title, icon, actions, dismiss, children }: Parts) {
  return (
    <Box width="100%" background={background} padding="200" borderRadius="200" color={text}>
      <InlineStack align="space-between" blockAlign="start" wrap={false} gap="200">
        <InlineStack gap="150" wrap={false}>
          {icon}
          <Box width="100%">
            <BlockStack gap="200">
              <BlockStack gap="050">
                {title}
                <div>{children}</div>
              </BlockStack>
              {actions}
            </BlockStack>
          </Box>
        </InlineStack>
        {dismiss}
      </InlineStack>
    </Box>
  );
}
