// Bytes kept in R2 (originals, results, watermarks) and what their first bytes say they are.
import { PermanentImageError, MSG_EXPIRED } from './errors';
import type { PipelineDeps } from './ports';

export async function readStored(deps: Pick<PipelineDeps, 'bucket'>, key: string | null): Promise<Uint8Array | null> {
  if (!key) return null;
  const obj = await deps.bucket.get(key);
  return obj ? new Uint8Array(await obj.arrayBuffer()) : null;
}

/** An original or result the row points at; gone from R2 means the 30 days are over. */
export async function readKept(deps: Pick<PipelineDeps, 'bucket'>, key: string | null): Promise<Uint8Array> {
  const bytes = await readStored(deps, key);
  if (!bytes) throw new PermanentImageError(MSG_EXPIRED);
  return bytes;
}

/** The file extension the bytes' signature names, or the fallback. */
export function sniffExt(bytes: Uint8Array, fallback: string): string {
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'jpg';
  if (bytes[0] === 0x89 && bytes[1] === 0x50) return 'png';
  if (bytes[0] === 0x47 && bytes[1] === 0x49) return 'gif';
  if (bytes[8] === 0x57 && bytes[9] === 0x45) return 'webp';
  return fallback || 'bin';
}

/** The engine's format name for stored bytes (jpeg when the signature says nothing else). */
export function formatOf(bytes: Uint8Array): string {
  const ext = sniffExt(bytes, 'jpg');
  return ext === 'jpg' ? 'jpeg' : ext;
}
