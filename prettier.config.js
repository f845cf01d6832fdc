// Prettier (`npm run format` writes, `npm run format:check` in `npm test` checks). Chosen to move the
// code's existing style as little as possible (measured with Prettier over the tree's 501 files):
// single quotes and semicolons as written; 130 columns because the code runs long lines (at 120, 384
// files changed; at 130, 357); trailing commas everywhere (Prettier's default; "es5" changed 12 more).
// Template literals are left alone: the GraphQL documents sent to Shopify keep their compact
// selections, byte for byte. Comments are never rewrapped by Prettier.
/** @type {import('prettier').Config} */
export default {
  singleQuote: true,
  printWidth: 130,
  trailingComma: 'all',
  embeddedLanguageFormatting: 'off',
};
