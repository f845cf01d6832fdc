import type { ModalProps } from '@shopify/polaris';
import { useEffect, useState, type ComponentProps } from 'react';

// Polaris' <Modal>, with its code (dialog, backdrop, focus trap, react-transition-group: about 9 KB
// gzipped) loaded the first time a modal opens instead of with the screen that may open one (issue 26:
// first-screen JavaScript). Same props and `Modal.Section`; while closed and not yet loaded it renders
// nothing (Polaris' closed modal renders an empty portal). Once loaded it stays Polaris' Modal, so it opens
// and closes with Polaris' transitions; only the first opening waits for the download.

type PolarisModal = typeof import('@shopify/polaris').Modal;

let loaded: PolarisModal | undefined;
let loading: Promise<PolarisModal> | undefined;

/** Polaris' Modal, fetched once. */
export function loadModal(): Promise<PolarisModal> {
  loading ??= import('./polaris-modal').then((m) => (loaded = m.Modal));
  return loading;
}

/** Polaris' modal props, without an activator (rendered before the code is there, it would need Polaris'). */
export type LazyModalProps = Omit<ModalProps, 'activator' | 'activatorWrapper'>;

export function Modal(props: LazyModalProps) {
  const [Loaded, setLoaded] = useState(() => loaded);
  useEffect(() => {
    if (!props.open || Loaded) return;
    let live = true;
    void loadModal().then((m) => live && setLoaded(() => m));
    return () => {
      live = false;
    };
  }, [props.open, Loaded]);
  return Loaded ? <Loaded {...props} /> : null;
}

/** Polaris' Modal.Section: it renders only inside an open modal, whose code is there by then. */
Modal.Section = function Section(props: ComponentProps<PolarisModal['Section']>) {
  const Polaris = loaded!.Section;
  return <Polaris {...props} />;
};
