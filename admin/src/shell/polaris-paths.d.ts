// Declarations for the Polaris files shell/polaris-internals.ts imports by path: Polaris publishes their types
// under build/ts, its JavaScript files carry none.
declare module '@shopify/polaris/build/cjs/utilities/i18n/hooks.js' {
  export { useI18n } from '@shopify/polaris/build/ts/src/utilities/i18n/hooks';
}
declare module '@shopify/polaris/build/cjs/utilities/focus.js' {
  export { handleMouseUpByBlurring } from '@shopify/polaris/build/ts/src/utilities/focus';
}
declare module '@shopify/polaris/build/cjs/components/Frame/components/CSSAnimation/CSSAnimation.js' {
  export { CSSAnimation } from '@shopify/polaris/build/ts/src/components/Frame/components/CSSAnimation/CSSAnimation';
}
declare module '@shopify/polaris/build/cjs/components/Frame/components/ToastManager/ToastManager.js' {
  export { ToastManager } from '@shopify/polaris/build/ts/src/components/Frame/components/ToastManager/ToastManager';
}
declare module '@shopify/polaris/build/cjs/components/Frame/components/ContextualSaveBar/ContextualSaveBar.js' {
  export { ContextualSaveBar } from '@shopify/polaris/build/ts/src/components/Frame/components/ContextualSaveBar/ContextualSaveBar';
}
declare module '@shopify/polaris/build/cjs/components/Frame/components/Loading/Loading.js' {
  export { Loading } from '@shopify/polaris/build/ts/src/components/Frame/components/Loading/Loading';
}
declare module '@shopify/polaris/build/cjs/components/Page/components/Header/components/Title/Title.js' {
  export { Title } from '@shopify/polaris/build/ts/src/components/Page/components/Header/components/Title/Title';
}
declare module '@shopify/polaris/build/cjs/components/Frame/Frame.css.js' {
  const styles: Record<
    'Frame' | 'ScrollbarAlwaysVisible' | 'ContextualSaveBar' | 'Main' | 'Content' | 'LoadingBar' | 'Skip' | 'focused',
    string
  >;
  export default styles;
}
declare module '@shopify/polaris/build/cjs/components/Page/components/Header/Header.css.js' {
  const styles: Record<
    | 'TitleWrapper'
    | 'TitleWrapperExpand'
    | 'BreadcrumbWrapper'
    | 'PrimaryActionWrapper'
    | 'Row'
    | 'mobileView'
    | 'RightAlign'
    | 'noBreadcrumbs'
    | 'Actions'
    | 'longTitle'
    | 'mediumTitle'
    | 'isSingleRow',
    string
  >;
  export default styles;
}
declare module '@shopify/polaris/build/cjs/components/Page/Page.css.js' {
  const styles: Record<'Page' | 'fullWidth' | 'narrowWidth' | 'Content', string>;
  export default styles;
}
declare module '@shopify/polaris/build/cjs/utilities/media-query/hooks.js' {
  export { useMediaQuery } from '@shopify/polaris/build/ts/src/utilities/media-query/hooks';
}
declare module '@shopify/polaris/build/cjs/components/MediaCard/MediaCard.css.js' {
  const styles: Record<'MediaCard' | 'portrait' | 'MediaContainer' | 'sizeSmall' | 'InfoContainer' | 'ActionContainer', string>;
  export default styles;
}
declare module '@shopify/polaris/build/cjs/components/LegacyCard/LegacyCard.css.js' {
  const styles: Record<'LegacyCard', string>;
  export default styles;
}
declare module '@shopify/polaris/build/cjs/utilities/within-content-context.js' {
  export { WithinContentContext } from '@shopify/polaris/build/ts/src/utilities/within-content-context';
}
