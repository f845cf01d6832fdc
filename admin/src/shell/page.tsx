import { Box, Button, buttonFrom, Text, type BreadcrumbsProps, type PageProps } from '@shopify/polaris';
import { ArrowLeftIcon } from '@shopify/polaris-icons';
import { isValidElement, type ReactElement } from 'react';
import { handleMouseUpByBlurring, headerStyles, pageStyles, Title, useI18n } from './polaris-internals';
import { NAVIGATION_COLLAPSED, useNarrow } from './viewport';

// Polaris' <Page> for the screens whose header has a title, a subtitle, a back arrow, one primary button
// and at most one element of secondary content (issue 26: first-screen JavaScript). Polaris' page header
// always brings its action menu (Popover, ActionList with its filter TextField, Tooltip, Badge) and
// pagination, about 17 KB gzipped, although those screens show none of them. This page renders the same
// markup, classes and screen-reader status line as Polaris' for those props (the same layout rules:
// compact and mobile rows, title lengths), with Polaris' own title, button and back-arrow pieces. A screen
// with a menu of secondary actions (image optimisation) uses Polaris' Page.

type PrimaryAction = {
  content?: string;
  onAction?(): void;
  url?: string;
  disabled?: boolean;
  loading?: boolean;
  primary?: boolean;
};

export type LitePageProps = Pick<PageProps, 'children' | 'fullWidth' | 'narrowWidth' | 'title' | 'subtitle'> & {
  backAction?: BreadcrumbsProps['backAction'];
  primaryAction?: PrimaryAction | ReactElement;
  /** Content at the header's end (Polaris renders an element here as it is). */
  secondaryActions?: ReactElement;
};

const SHORT_TITLE = 20;
const LONG_TITLE = 34;

/** Polaris' primary page action: a primary button unless `primary: false`. */
const actionButton = (action: PrimaryAction) =>
  buttonFrom({ ...action, icon: undefined }, { variant: action.primary === false ? undefined : 'primary' });

const cx = (...names: (string | false | undefined | null | 0)[]) => names.filter(Boolean).join(' ');

export function Page({ children, fullWidth, narrowWidth, ...header }: LitePageProps) {
  const { title, subtitle, primaryAction, secondaryActions, backAction } = header;
  const hasHeader = !!title || !!subtitle || primaryAction != null || secondaryActions != null || backAction != null;
  return (
    <div className={cx(pageStyles.Page, fullWidth && pageStyles.fullWidth, narrowWidth && pageStyles.narrowWidth)}>
      {hasHeader && <Header {...header} />}
      <div className={hasHeader ? '' : pageStyles.Content}>{children}</div>
    </div>
  );
}

function Header({
  title,
  subtitle,
  primaryAction,
  secondaryActions,
  backAction,
}: Omit<LitePageProps, 'children' | 'fullWidth' | 'narrowWidth'>) {
  const i18n = useI18n();
  // Polaris' Page reads its MediaQueryProvider, false until an effect measured; this reads the viewport at
  // the first render (or, hydrating the Worker's markup, the viewport it was rendered for: shell/viewport.ts).
  const mobile = useNarrow(NAVIGATION_COLLAPSED);
  const menu = secondaryActions ?? null;

  const breadcrumb = backAction ? (
    <div className={headerStyles.BreadcrumbWrapper}>
      <Box maxWidth="100%" paddingInlineEnd="100" printHidden>
        <Button
          url={'url' in backAction ? backAction.url : undefined}
          // eslint-disable-next-line @typescript-eslint/unbound-method -- handed on as Polaris' back arrow does
          onClick={'onAction' in backAction ? backAction.onAction : undefined}
          onPointerDown={handleMouseUpByBlurring}
          icon={ArrowLeftIcon}
          accessibilityLabel={backAction.accessibilityLabel ?? backAction.content}
        />
      </Box>
    </div>
  ) : null;
  const pageTitle = (
    <div className={cx(headerStyles.TitleWrapper, !menu && headerStyles.TitleWrapperExpand)}>
      <Title title={title} subtitle={subtitle} hasSubtitleMaxWidth={!!menu} />
    </div>
  );
  const primary = primaryAction ? (
    <div className={headerStyles.PrimaryActionWrapper}>
      <Box printHidden>{isValidElement(primaryAction) ? primaryAction : actionButton(primaryAction as PrimaryAction)}</Box>
    </div>
  ) : null;

  // Polaris' layouts: on a phone, and on a wide screen with a short title and no menu, the actions sit
  // at the row's end each in its own slot; otherwise menu and primary button share one.
  const perSlot = mobile || (!menu && title != null && title.length <= SHORT_TITLE);
  const slot3 = perSlot ? (
    menu
  ) : (
    <>
      {menu}
      {primary}
    </>
  );
  const slot4 = perSlot ? primary : null;
  const className = cx(
    !primaryAction && headerStyles.isSingleRow,
    mobile && headerStyles.mobileView,
    !backAction && headerStyles.noBreadcrumbs,
    title && title.length < LONG_TITLE && headerStyles.mediumTitle,
    title && title.length > LONG_TITLE && headerStyles.longTitle,
  );
  return (
    <Box
      position="relative"
      paddingBlockStart={{ xs: '400', md: '600' }}
      paddingBlockEnd={{ xs: '400', md: '600' }}
      paddingInlineStart={{ xs: '400', sm: '0' }}
      paddingInlineEnd={{ xs: '400', sm: '0' }}
    >
      {title ? (
        <div role="status">
          <Text visuallyHidden as="p">
            {i18n.translate('Polaris.Page.Header.pageReadyAccessibilityLabel', { title })}
          </Text>
        </div>
      ) : undefined}
      <div className={className}>
        <div className={headerStyles.Row}>
          {breadcrumb}
          {pageTitle}
          {(slot3 !== null || slot4 !== null) && (
            <div className={headerStyles.RightAlign}>
              {slot3 !== null && slot4 !== null ? (
                <div className={headerStyles.Actions}>
                  {slot3}
                  {slot4}
                </div>
              ) : (
                <>
                  {slot3}
                  {slot4}
                </>
              )}
            </div>
          )}
        </div>
      </div>
    </Box>
  );
}
