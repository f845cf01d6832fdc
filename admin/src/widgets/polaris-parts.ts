// Polaris pieces the screens' thin stand-ins use (widgets/section-menu.tsx, ...; issue 26: first-screen
// JavaScript), imported by path as shell/polaris-internals.ts does and for the same reason: the path
// names Polaris' CommonJS build, the copy the package index resolves to in the admin tests, and
// admin/vite.config.ts maps build/cjs/ onto build/esm/ in the bundle, so both hold one Polaris.
export { default as actionListStyles } from '@shopify/polaris/build/cjs/components/ActionList/ActionList.css.js';
export { handleMouseUpByBlurring } from '@shopify/polaris/build/cjs/utilities/focus.js';
export { default as progressBarStyles } from '@shopify/polaris/build/cjs/components/ProgressBar/ProgressBar.css.js';
export { default as bulkActionsStyles } from '@shopify/polaris/build/cjs/components/BulkActions/BulkActions.css.js';
export { CheckableButton } from '@shopify/polaris/build/cjs/components/CheckableButton/CheckableButton.js';
export { default as paginationStyles } from '@shopify/polaris/build/cjs/components/Pagination/Pagination.css.js';
export { useI18n } from '@shopify/polaris/build/cjs/utilities/i18n/hooks.js';
export { default as actionMenuStyles } from '@shopify/polaris/build/cjs/components/ActionMenu/ActionMenu.css.js';
export { default as actionsStyles } from '@shopify/polaris/build/cjs/components/ActionMenu/components/Actions/Actions.css.js';
export { default as secondaryActionStyles } from '@shopify/polaris/build/cjs/components/ActionMenu/components/SecondaryAction/SecondaryAction.css.js';
export { default as rollupActionsStyles } from '@shopify/polaris/build/cjs/components/ActionMenu/components/RollupActions/RollupActions.css.js';
export { useMediaQuery } from '@shopify/polaris/build/cjs/utilities/media-query/hooks.js';
export { default as badgeStyles } from '@shopify/polaris/build/cjs/components/Badge/Badge.css.js';
export { Labelled } from '@shopify/polaris/build/cjs/components/Labelled/Labelled.js';
export { default as textFieldStyles } from '@shopify/polaris/build/cjs/components/TextField/TextField.css.js';
export { default as connectedStyles } from '@shopify/polaris/build/cjs/components/Connected/Connected.css.js';
export { default as videoThumbnailStyles } from '@shopify/polaris/build/cjs/components/VideoThumbnail/VideoThumbnail.css.js';
export { default as collapsibleStyles } from '@shopify/polaris/build/cjs/components/Collapsible/Collapsible.css.js';
export { default as bannerStyles } from '@shopify/polaris/build/cjs/components/Banner/Banner.css.js';
export { BannerContext } from '@shopify/polaris/build/cjs/utilities/banner-context.js';
export { default as buttonGroupStyles } from '@shopify/polaris/build/cjs/components/ButtonGroup/ButtonGroup.css.js';
export { default as emptyStateStyles } from '@shopify/polaris/build/cjs/components/EmptyState/EmptyState.css.js';
