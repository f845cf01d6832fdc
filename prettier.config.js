// Prettier (`npm run format` writes, `npm run format:check` in `npm test` checks). Chosen to move the
// code's existing style as little as possible (measured with `prettier --check` over the tree):
// single quotes and semicolons as written; 130 columns because the code runs long lines (at 120,
// 384 of 496 files changed; at 130, 358); trailing commas everywhere (Prettier's default: with "es5"
// 12 more files changed). Comments are never rewrapped by Prettier.
/** @type {import('prettier').Config} */
export default {
  singleQuote: true,
  printWidth: 130,
  trailingComma: 'all',
};
