import type { EngineFormat } from './types';

/** One possible output of a pipeline; the engine keeps the smallest acceptable one. */
export type Candidate = {
  bytes: Uint8Array;
  format: EngineFormat;
  width: number;
  height: number;
  convertedToJpg: boolean;
  watermarked: boolean;
  qualityUsed?: number;
  ssim?: number | null;
  note?: string;
  /** A progressive JPEG original read as this many tiles (jpeg/tiles.ts). */
  tiles?: number;
  /** Baseline JPEG written in bands (jpeg/banded.ts): the progressive encoder did not fit. */
  banded?: boolean;
};

export function smallest(list: (Candidate | null | undefined)[]): Candidate | null {
  let best: Candidate | null = null;
  for (const c of list) if (c && (!best || c.bytes.length < best.bytes.length)) best = c;
  return best;
}
