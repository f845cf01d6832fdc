// Polaris pieces that its package index does not export, for the shell's frame and page (frame.tsx,
// page.tsx; issue 26). They are imported by path, and the path names Polaris' CommonJS build: that is
// the copy the package index resolves to where Node loads Polaris (the admin tests), so both share one
// React context (i18n, portals); admin/vite.config.ts maps build/cjs/ onto build/esm/, the copy the index
// resolves to in the bundle, so the built admin holds one Polaris too.
export { CSSAnimation } from '@shopify/polaris/build/cjs/components/Frame/components/CSSAnimation/CSSAnimation.js';
export { default as frameStyles } from '@shopify/polaris/build/cjs/components/Frame/Frame.css.js';
export { default as legacyCardStyles } from '@shopify/polaris/build/cjs/components/LegacyCard/LegacyCard.css.js';
export { default as mediaCardStyles } from '@shopify/polaris/build/cjs/components/MediaCard/MediaCard.css.js';
export { default as headerStyles } from '@shopify/polaris/build/cjs/components/Page/components/Header/Header.css.js';
export { Title } from '@shopify/polaris/build/cjs/components/Page/components/Header/components/Title/Title.js';
export { default as pageStyles } from '@shopify/polaris/build/cjs/components/Page/Page.css.js';
export { handleMouseUpByBlurring } from '@shopify/polaris/build/cjs/utilities/focus.js';
export { WithinContentContext } from '@shopify/polaris/build/cjs/utilities/within-content-context.js';
export { useI18n } from '@shopify/polaris/build/cjs/utilities/i18n/hooks.js';
export { useMediaQuery } from '@shopify/polaris/build/cjs/utilities/media-query/hooks.js';

/** Loaded on first use (shell/frame.tsx). */
export const loadToastManager = async () =>
  (await import('@shopify/polaris/build/cjs/components/Frame/components/ToastManager/ToastManager.js')).ToastManager;
export const loadContextualSaveBar = async () =>
  (await import('@shopify/polaris/build/cjs/components/Frame/components/ContextualSaveBar/ContextualSaveBar.js'))
    .ContextualSaveBar;
export const loadLoading = async () =>
  (await import('@shopify/polaris/build/cjs/components/Frame/components/Loading/Loading.js')).Loading;
