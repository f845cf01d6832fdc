// Polaris' Modal in a chunk of its own, loaded by shell/modal.tsx the first time a modal opens.
export { Modal } from '@shopify/polaris';
