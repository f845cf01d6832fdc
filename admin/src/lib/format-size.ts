// Sizes as the image screens show them: KB below 1 MB (1048576 bytes), MB below 1 GB (1073741824), then GB.
const MB = 1048576;
const GB = 1073741824;

export function formatSize(bytes: number): string {
  const b = Number.isFinite(bytes) && bytes > 0 ? bytes : 0;
  if (b < MB) return `${(b / 1024).toFixed(2)} KB`;
  if (b < GB) return `${(b / MB).toFixed(2)} MB`;
  return `${(b / GB).toFixed(2)} GB`;
}
