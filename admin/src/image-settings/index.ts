export { ImageSettingsForm } from './image-settings-form';
export { useImageSettings, type ImageSettingsState } from './use-image-settings';
export { TemplateSection } from './template-section';
export { TemplateEditor } from './template-editor';
export { watermarkUrl } from './watermark-section';
export { ImageSettingsPanel } from './image-settings-panel';
