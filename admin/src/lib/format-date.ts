// Dates in the merchant's language: lib/intl.ts.
export { formatDay } from './intl';
