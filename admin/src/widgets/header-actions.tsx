import { Button } from '@shopify/polaris';
import { MenuHorizontalIcon } from '@shopify/polaris-icons';
import { lazy, startTransition, Suspense, useEffect, useRef, useState } from 'react';
import { actionMenuStyles, actionsStyles, rollupActionsStyles, secondaryActionStyles, useI18n } from './polaris-parts';
import { NAVIGATION_COLLAPSED, useNarrow } from '../shell/viewport';

// The secondary actions of a page header (Polaris' <Page secondaryActions={[...]}>), for the shell's Page
// (issue 26: first-screen JavaScript). Polaris' header menu brings Popover, ActionList (and its filter
// TextField), Tooltip and their overlays, about 15 KB gzipped, although on a wide screen it shows plain
// buttons. This renders Polaris' ActionMenu markup and classes (tests/admin/screen-markup.test.tsx):
// - wide screens: the buttons, as Polaris shows them once it has measured that they fit (its hidden
//   measuring copy included). Should they not fit (a narrow window, long labels), or stop fitting on a
//   resize, Polaris' own ActionMenu takes over and rolls the extra ones into "More actions";
// - phones: Polaris' "..." button, in the wrapper of its closed Popover; Polaris' menu (RollupActions)
//   is fetched when the pointer, the focus or a touch reaches the button, and a click before it arrives
//   opens it when it does.

export type HeaderAction = { content: string; onAction: () => void };

const PolarisActionMenu = lazy(async () => ({
  default: (await import('@shopify/polaris/build/cjs/components/ActionMenu/ActionMenu.js')).ActionMenu,
}));

/** Polaris' ActionsMeasurer: the spacing it adds to each measured button. */
const ACTION_SPACING = 8;

export function HeaderActions({ actions, title }: { actions: HeaderAction[]; title?: string }) {
  const i18n = useI18n();
  // The viewport at the first render, or the one the Worker's markup was rendered for while hydrating
  // (shell/viewport.ts), as the page header does: Polaris' useMediaQuery says "wide" until an effect
  // measured, and the phone's header was hydrated as a wide one and then moved (issue 26: CLS 0.2).
  const mobile = useNarrow(NAVIGATION_COLLAPSED);
  const [polaris, setPolaris] = useState(false);
  const clickedEarly = useRef(false);
  const measurer = useRef<HTMLDivElement>(null);
  const rollupLabel = title ? i18n.translate('Polaris.Page.Header.rollupActionsLabel', { title }) : undefined;

  // Wide screens: do the buttons fit? (Polaris' rule: the container is wider than the buttons with spacing.)
  useEffect(() => {
    if (mobile || polaris) return;
    const check = () => {
      const node = measurer.current;
      if (!node || node.offsetWidth === 0) return; // not laid out
      const widths = [...node.children].map((c) => Math.ceil(c.getBoundingClientRect().width) + ACTION_SPACING);
      widths.pop(); // the "More actions" button
      if (!(node.offsetWidth > widths.reduce((a, b) => a + b, 0))) startTransition(() => setPolaris(true));
    };
    check();
    window.addEventListener('resize', check);
    return () => window.removeEventListener('resize', check);
  }, [mobile, polaris]);

  const want = () => {
    if (!polaris) startTransition(() => setPolaris(true));
  };
  const secondary = (action: HeaderAction, key: string) => (
    <div className={secondaryActionStyles.SecondaryAction} key={key}>
      <Button onClick={action.onAction}>{action.content}</Button>
    </div>
  );

  const ours = mobile ? (
    <div className={actionMenuStyles.ActionMenu}>
      <div onPointerEnter={want} onFocus={want} onTouchStart={want}>
        <div className={rollupActionsStyles.RollupActivator}>
          <Button
            icon={MenuHorizontalIcon}
            accessibilityLabel={rollupLabel ?? i18n.translate('Polaris.ActionMenu.RollupActions.rollupButton')}
            onClick={() => {
              clickedEarly.current = true;
              want();
            }}
          />
        </div>
      </div>
    </div>
  ) : (
    <div className={actionMenuStyles.ActionMenu}>
      <div className={actionsStyles.ActionsLayoutOuter}>
        <div className={actionsStyles.ActionsLayoutMeasurer} ref={measurer}>
          {actions.map((a) => secondary(a, a.content))}
          <div className={secondaryActionStyles.SecondaryAction}>
            <Button disclosure>{i18n.translate('Polaris.ActionMenu.Actions.moreActions')}</Button>
          </div>
        </div>
        <div className={actionsStyles.ActionsLayout}>{actions.map((a) => secondary(a, a.content))}</div>
      </div>
    </div>
  );
  if (!polaris) return ours;
  return (
    <Suspense fallback={ours}>
      <PolarisActionMenu actions={actions} rollup={mobile} rollupActionsLabel={rollupLabel} />
      <OpenWhenArrived clickedRef={clickedEarly} />
    </Suspense>
  );
}

/**
 * Phones: a click on the "..." button before Polaris' menu arrived opens it once it is there. Rendered
 * beside Polaris' menu inside the same Suspense boundary, so it mounts (and its effect runs) only when
 * that menu has replaced our markup: an effect in HeaderActions itself would run while the fallback
 * still shows, click our own button again, and never run once the menu arrives.
 */
function OpenWhenArrived({ clickedRef }: { clickedRef: { current: boolean } }) {
  useEffect(() => {
    if (!clickedRef.current) return;
    clickedRef.current = false;
    document.querySelector<HTMLElement>(`.${rollupActionsStyles.RollupActivator} button`)?.click();
  }, [clickedRef]);
  return null;
}
