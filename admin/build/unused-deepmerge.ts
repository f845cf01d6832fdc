// What the admin's bundle takes for the `deepmerge` package (admin/vite.config.ts). @shopify/polaris-tokens
// imports it for the helper that builds a theme from the base theme (createThemeVariant), which Polaris
// never calls in the browser: the themes come prebuilt in the tokens module. Deepmerge is CommonJS, so the
// bundle kept it and ran it on every load although nothing used it; this ES module is dropped instead (a
// Polaris that did call it would fail loudly, not merge wrongly).
export default function deepmerge(): never {
  throw new Error('deepmerge is not in the admin bundle (admin/build/unused-deepmerge.ts)');
}
