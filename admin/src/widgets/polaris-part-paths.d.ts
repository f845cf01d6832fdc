// Declarations for the Polaris files widgets/polaris-parts.ts imports by path: Polaris publishes their types
// under build/ts, its JavaScript files carry none.
declare module '@shopify/polaris/build/cjs/components/ActionList/ActionList.css.js' {
  const styles: Record<'Item' | 'active' | 'default' | 'Text', string>;
  export default styles;
}
