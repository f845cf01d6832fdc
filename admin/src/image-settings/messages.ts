import {
  MSG_CUSTOM_RANGE,
  MSG_INPUT_EMPTY,
  MSG_LEVEL_RANGE,
  MSG_MANUAL_MODE_WARNING,
  MSG_NEED_ONE_ITEM,
  MSG_OPACITY_RANGE,
  MSG_POSITION,
  MSG_PRODUCT_SCOPE,
  MSG_WATERMARK_REQUIRED,
  MSG_WATERMARK_SIZE_RANGE,
  MSG_WATERMARK_TOO_LARGE,
  MSG_WATERMARK_TYPE,
} from '../../../shared/image-settings';

// The documented (English) validation messages of shared/image-settings.ts, as catalogue keys, so the
// same rule reads in the merchant's language whether the admin or the Worker found it.
const KEYS: Record<string, string> = {
  [MSG_NEED_ONE_ITEM]: 'imageSettings.msg.needOneItem',
  [MSG_INPUT_EMPTY]: 'imageSettings.msg.inputEmpty',
  [MSG_WATERMARK_REQUIRED]: 'imageSettings.msg.watermarkRequired',
  [MSG_WATERMARK_TOO_LARGE]: 'imageSettings.msg.watermarkTooLarge',
  [MSG_WATERMARK_TYPE]: 'imageSettings.msg.watermarkType',
  [MSG_MANUAL_MODE_WARNING]: 'imageSettings.mode.manualWarning',
  [MSG_WATERMARK_SIZE_RANGE]: 'imageSettings.msg.invalid',
  [MSG_OPACITY_RANGE]: 'imageSettings.msg.invalid',
  [MSG_LEVEL_RANGE]: 'imageSettings.msg.invalid',
  [MSG_CUSTOM_RANGE]: 'imageSettings.msg.invalid',
  [MSG_PRODUCT_SCOPE]: 'imageSettings.msg.invalid',
  [MSG_POSITION]: 'imageSettings.msg.invalid',
};

/** Translates a documented settings message; any other server message is shown as sent. */
export function translateSettingsMessage(message: string, t: (key: string) => string): string {
  const key = KEYS[message];
  return key ? t(key) : message;
}
