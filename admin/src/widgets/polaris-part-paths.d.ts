// Declarations for the Polaris files widgets/polaris-parts.ts imports by path: Polaris publishes their types
// under build/ts, its JavaScript files carry none.
declare module '@shopify/polaris/build/cjs/components/ActionList/ActionList.css.js' {
  const styles: Record<'Item' | 'active' | 'default' | 'Text', string>;
  export default styles;
}
declare module '@shopify/polaris/build/cjs/components/ProgressBar/ProgressBar.css.js' {
  const styles: Record<
    | 'ProgressBar'
    | 'sizeSmall'
    | 'sizeMedium'
    | 'sizeLarge'
    | 'toneHighlight'
    | 'tonePrimary'
    | 'toneSuccess'
    | 'toneCritical'
    | 'Indicator'
    | 'IndicatorAppearActive'
    | 'IndicatorAppearDone'
    | 'Progress'
    | 'Label',
    string
  >;
  export default styles;
}
declare module '@shopify/polaris/build/cjs/components/BulkActions/BulkActions.js' {
  export { BulkActions } from '@shopify/polaris/build/ts/src/components/BulkActions/BulkActions';
}
declare module '@shopify/polaris/build/cjs/components/CheckableButton/CheckableButton.js' {
  export { CheckableButton } from '@shopify/polaris/build/ts/src/components/CheckableButton/CheckableButton';
}
declare module '@shopify/polaris/build/cjs/components/BulkActions/BulkActions.css.js' {
  const styles: Record<'BulkActions' | 'BulkActionsSelectAllWrapper', string | undefined>;
  export default styles;
}
declare module '@shopify/polaris/build/cjs/components/Pagination/Pagination.css.js' {
  const styles: Record<'Pagination', string>;
  export default styles;
}
declare module '@shopify/polaris/build/cjs/components/Tooltip/Tooltip.js' {
  export { Tooltip } from '@shopify/polaris/build/ts/src/components/Tooltip/Tooltip';
}
declare module '@shopify/polaris/build/cjs/components/Pagination/Pagination.js' {
  export { Pagination } from '@shopify/polaris/build/ts/src/components/Pagination/Pagination';
}
declare module '@shopify/polaris/build/cjs/components/ActionMenu/ActionMenu.js' {
  export { ActionMenu } from '@shopify/polaris/build/ts/src/components/ActionMenu/ActionMenu';
}
declare module '@shopify/polaris/build/cjs/components/ActionMenu/ActionMenu.css.js' {
  const styles: Record<'ActionMenu', string>;
  export default styles;
}
declare module '@shopify/polaris/build/cjs/components/ActionMenu/components/Actions/Actions.css.js' {
  const styles: Record<'ActionsLayoutOuter' | 'ActionsLayout' | 'ActionsLayoutMeasurer', string>;
  export default styles;
}
declare module '@shopify/polaris/build/cjs/components/ActionMenu/components/SecondaryAction/SecondaryAction.css.js' {
  const styles: Record<'SecondaryAction', string>;
  export default styles;
}
declare module '@shopify/polaris/build/cjs/components/ActionMenu/components/RollupActions/RollupActions.css.js' {
  const styles: Record<'RollupActivator', string>;
  export default styles;
}
declare module '@shopify/polaris/build/cjs/components/Badge/Badge.css.js' {
  const styles: Record<'Badge', string> & Record<string, string | undefined>;
  export default styles;
}
declare module '@shopify/polaris/build/cjs/components/LegacyStack/LegacyStack.js' {
  export { LegacyStack } from '@shopify/polaris/build/ts/src/components/LegacyStack/LegacyStack';
}
declare module '@shopify/polaris/build/cjs/components/Layout/components/AnnotatedSection/AnnotatedSection.js' {
  export { AnnotatedSection } from '@shopify/polaris/build/ts/src/components/Layout/components/AnnotatedSection/AnnotatedSection';
}
declare module '@shopify/polaris/build/cjs/components/Labelled/Labelled.js' {
  export { Labelled } from '@shopify/polaris/build/ts/src/components/Labelled/Labelled';
}
declare module '@shopify/polaris/build/cjs/components/TextField/TextField.css.js' {
  const styles: Record<
    'TextField' | 'hasValue' | 'focus' | 'Prefix' | 'Input' | 'Input-hasClearButton' | 'ClearButton' | 'Backdrop',
    string
  >;
  export default styles;
}
declare module '@shopify/polaris/build/cjs/components/Connected/Connected.css.js' {
  const styles: Record<'Connected' | 'Item' | 'Item-primary' | 'Item-focused', string>;
  export default styles;
}
declare module '@shopify/polaris/build/cjs/components/EmptySearchResult/EmptySearchResult.js' {
  export { EmptySearchResult } from '@shopify/polaris/build/ts/src/components/EmptySearchResult/EmptySearchResult';
}
declare module '@shopify/polaris/build/cjs/components/VideoThumbnail/VideoThumbnail.css.js' {
  const styles: Record<'Thumbnail' | 'ThumbnailContainer' | 'PlayButton', string>;
  export default styles;
}
declare module '@shopify/polaris/build/cjs/components/Collapsible/Collapsible.js' {
  export { Collapsible } from '@shopify/polaris/build/ts/src/components/Collapsible/Collapsible';
}
declare module '@shopify/polaris/build/cjs/components/Collapsible/Collapsible.css.js' {
  const styles: Record<'Collapsible' | 'isFullyClosed', string>;
  export default styles;
}
declare module '@shopify/polaris/build/cjs/components/Banner/Banner.css.js' {
  const styles: Record<
    | 'Banner'
    | 'keyFocused'
    | 'withinContentContainer'
    | 'withinPage'
    | 'DismissIcon'
    | 'text-success-on-bg-fill'
    | 'text-success'
    | 'text-warning-on-bg-fill'
    | 'text-warning'
    | 'text-critical-on-bg-fill'
    | 'text-critical'
    | 'text-info-on-bg-fill'
    | 'text-info'
    | 'icon-secondary',
    string
  >;
  export default styles;
}
declare module '@shopify/polaris/build/cjs/utilities/banner-context.js' {
  export { BannerContext } from '@shopify/polaris/build/ts/src/utilities/banner-context';
}
declare module '@shopify/polaris/build/cjs/components/ButtonGroup/ButtonGroup.css.js' {
  const styles: Record<
    | 'ButtonGroup'
    | 'Item'
    | 'Item-plain'
    | 'variantSegmented'
    | 'Item-focused'
    | 'fullWidth'
    | 'extraTight'
    | 'tight'
    | 'loose'
    | 'noWrap',
    string
  >;
  export default styles;
}
declare module '@shopify/polaris/build/cjs/components/EmptyState/EmptyState.css.js' {
  const styles: Record<
    'ImageContainer' | 'Image' | 'loaded' | 'imageContained' | 'SkeletonImageContainer' | 'SkeletonImage',
    string
  >;
  export default styles;
}
