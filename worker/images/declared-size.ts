import { ImageDecodeError } from './errors';
import { readHeader } from './sniff';

/**
 * Shopify accepts images of at most 25 megapixels, and a decoded 25 MP image is already more than an
 * isolate's 128 MB can hold for some pipelines, so nothing bigger is ever stored: a tiny file can
 * declare 100,000 x 100,000 pixels (an image bomb) and only its header tells.
 */
export const MAX_IMAGE_PIXELS = 25_000_000;

/** True when the PNG/JPEG header declares a size within MAX_IMAGE_PIXELS; false for bombs and broken headers. */
export function declaredSizeAllowed(bytes: Uint8Array, format: 'png' | 'jpeg'): boolean {
  try {
    const { width, height } = readHeader(bytes, format);
    return width * height <= MAX_IMAGE_PIXELS;
  } catch (err) {
    if (err instanceof ImageDecodeError) return false;
    throw err;
  }
}
