/** Corrupt, truncated or non-image bytes. Callers record the image as failed; it is never a crash. */
export class ImageDecodeError extends Error {
  override name = 'ImageDecodeError';
}
