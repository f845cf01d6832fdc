import { FrameContext, Text } from '@shopify/polaris';
import type { FrameContextType } from '@shopify/polaris/build/ts/src/utilities/frame/context';
import type { ContextualSaveBarProps, ToastPropsWithID } from '@shopify/polaris/build/ts/src/utilities/frame/types';
import { lazy, Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import {
  CSSAnimation,
  frameStyles as styles,
  loadContextualSaveBar,
  loadLoading,
  loadToastManager,
  useI18n,
} from './polaris-internals';
import { useLayoutEffectInBrowser } from '../hooks/use-layout-effect';

// Polaris' <Frame> for the admin (issue 26: first-screen JavaScript). Polaris' own Frame brings its
// toast manager (react-transition-group), its contextual save bar (with a discard Modal, focus trap and
// backdrop), its loading bar and its mobile navigation into the first screen's JavaScript, although none
// of them shows before a merchant acts (the admin has no Polaris navigation or top bar). This frame renders
// the same markup and classes as Polaris' for the admin's use (no navigation, top bar, global ribbon or
// logo), provides the same FrameContext (Polaris' Toast, ContextualSaveBar and Loading talk to it), and
// loads Polaris' own toast manager, save bar and loading bar the first time one of them is asked for.

const ToastManager = lazy(async () => ({ default: await loadToastManager() }));
const ContextualSaveBar = lazy(async () => ({ default: await loadContextualSaveBar() }));
const Loading = lazy(async () => ({ default: await loadLoading() }));

const APP_FRAME_MAIN = 'AppFrameMain';

/**
 * Polaris' toast manager, mounted empty first: its live region (aria-live) is in the page one render
 * before the first toast goes into it, so screen readers announce the toast as they do with Polaris' Frame.
 */
function Toasts({ toastMessages }: { toastMessages: ToastPropsWithID[] }) {
  const [live, setLive] = useState(false);
  useEffect(() => setLive(true), []);
  return <ToastManager toastMessages={live ? toastMessages : []} />;
}

export function Frame({ children }: { children?: ReactNode }) {
  const i18n = useI18n();
  const [skipFocused, setSkipFocused] = useState(false);
  const [toastMessages, setToastMessages] = useState<ToastPropsWithID[]>([]);
  const [toastsWanted, setToastsWanted] = useState(false);
  const [saveBar, setSaveBar] = useState<ContextualSaveBarProps | null>(null);
  const [saveBarWanted, setSaveBarWanted] = useState(false);
  const [loadingStack, setLoadingStack] = useState(0);
  const [scrollbarAlwaysVisible, setScrollbarAlwaysVisible] = useState(false);

  // What Polaris' Frame sets on mount: the offset and ribbon height its stylesheet reads, and whether the
  // AppProvider measured an always-visible scrollbar.
  useLayoutEffectInBrowser(() => {
    const root = document.documentElement.style;
    root.setProperty('--pc-frame-global-ribbon-height', '0px');
    root.setProperty('--pc-frame-offset', '0px');
    setScrollbarAlwaysVisible(parseInt(root.getPropertyValue('--pc-app-provider-scrollbar-width'), 10) > 0);
  }, []);

  const context = useMemo<FrameContextType>(
    () => ({
      showToast: (toast) => {
        setToastsWanted(true);
        setToastMessages((all) => (all.some(({ id }) => id === toast.id) ? all : [...all, toast]));
      },
      hideToast: ({ id }) => setToastMessages((all) => all.filter((t) => t.id !== id)),
      toastMessages,
      startLoading: () => setLoadingStack((n) => n + 1),
      stopLoading: () => setLoadingStack((n) => Math.max(0, n - 1)),
      setContextualSaveBar: (props) => {
        setSaveBarWanted(true);
        setSaveBar({ ...props });
      },
      removeContextualSaveBar: () => setSaveBar(null),
      contextualSaveBarVisible: saveBar !== null,
      contextualSaveBarProps: saveBar,
    }),
    [toastMessages, saveBar],
  );

  const frameClass = scrollbarAlwaysVisible ? `${styles.Frame} ${styles.ScrollbarAlwaysVisible}` : styles.Frame;
  return (
    <FrameContext.Provider value={context}>
      <div className={frameClass} data-polaris-layer>
        <div className={skipFocused ? `${styles.Skip} ${styles.focused}` : styles.Skip}>
          <a href={`#${APP_FRAME_MAIN}`} onFocus={() => setSkipFocused(true)} onBlur={() => setSkipFocused(false)}>
            <Text as="span" variant="bodyLg" fontWeight="medium">
              {i18n.translate('Polaris.Frame.skipToContent')}
            </Text>
          </a>
        </div>
        <CSSAnimation in={saveBar !== null} className={styles.ContextualSaveBar} type="fade">
          {saveBarWanted && (
            <Suspense fallback={null}>
              <ContextualSaveBar {...saveBar} />
            </Suspense>
          )}
        </CSSAnimation>
        {loadingStack > 0 && (
          <div className={styles.LoadingBar} id="AppFrameLoadingBar">
            <Suspense fallback={null}>
              <Loading />
            </Suspense>
          </div>
        )}
        <main className={styles.Main} id={APP_FRAME_MAIN} data-has-global-ribbon={false}>
          <div className={styles.Content}>{children}</div>
        </main>
        {toastsWanted && (
          <Suspense fallback={null}>
            <Toasts toastMessages={toastMessages} />
          </Suspense>
        )}
      </div>
    </FrameContext.Provider>
  );
}
