// Sizes in the merchant's language: lib/intl.ts.
export { formatSize } from './intl';
