/** Public types of the codec engine (contract with worker/optimise). Fields may be added, never changed. */

export type WatermarkPosition = 't_l' | 't_c' | 't_r' | 'c' | 'b_l' | 'b_c' | 'b_r';

export type EngineSettings = {
  mode: 'lossless' | 'lossy';
  /** 55..95 lossy quality (Low 90, Medium 75, High 70); ignored when lossless. */
  quality: number;
  /** Convert PNG originals to JPG (transparent areas flattened on white). */
  pngToJpg: boolean;
  /** Skip a JPG that would be larger than the PNG. */
  pngToJpgSizeControl: boolean;
  /** heightFraction: 0..1 of the image height; opacity 0.1..1. */
  watermark?: { bytes: Uint8Array; position: WatermarkPosition; heightFraction: number; opacity: number };
  /** Resize on request: images whose long side exceeds this (2048, 2880, 4096 px) are scaled down to it. Absent or 0: off. */
  resizeLongSide?: number;
};

export type EngineFormat = 'jpeg' | 'png' | 'webp';

export type EngineResult =
  | {
      kind: 'optimised';
      bytes: Uint8Array;
      format: EngineFormat;
      mime: string;
      width: number;
      height: number;
      /** The original's size as stored (before a resize on request; EXIF orientation not applied). */
      widthIn?: number;
      heightIn?: number;
      inputFormat: EngineFormat;
      convertedToJpg: boolean;
      watermarked: boolean;
      bytesIn: number;
      bytesOut: number;
      /** 'wasm' (whole-image codecs) or 'wasm-rows' (row-wise path of large PNGs); both in the isolate. */
      path?: EnginePath;
      /** Lossy JPEG quality actually used (the perceptual guard may raise it above the setting). */
      qualityUsed?: number;
      /** Block SSIM of the lossy output against its source pixels, when the perceptual guard measured it. */
      ssim?: number;
      /** A progressive JPEG original too large to hold whole, read as this many tiles (jpeg/tiles.ts). */
      tiles?: number;
      /** A JPEG written as baseline in bands (jpeg/banded.ts): the progressive encoder did not fit beside the source. */
      banded?: boolean;
      /**
       * Why the result is less than the level asked for, e.g. "JPEG of 25.0 MP: coefficients too large for
       * the isolate, metadata removed only": the merchant should see this, not a normal optimisation.
       */
      note?: string;
      /**
       * Set when the engine could not give the level asked for and did less (the merchant is told, with
       * `note`'s reason): 'metadata-only' (the pixels are the original's, only metadata removed),
       * 'lossless-only' (a lossy level got a lossless recompression).
       */
      limited?: 'metadata-only' | 'lossless-only';
    }
  | { kind: 'already-optimal'; reason: string; inputFormat: string; bytesIn: number }
  | { kind: 'unsupported'; reason: string; inputFormat: string };

export type EnginePath = 'wasm' | 'wasm-rows';

export type SniffedFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'unknown';

/** Straight (non-premultiplied) RGBA, 8 bits per channel, row-major. */
export type Rgba = { data: Uint8ClampedArray; width: number; height: number };

/** The optional dependencies of optimiseImage. */
export type EngineDeps = {
  /** Bytes the in-isolate pipeline may use (default: 128 MB minus a reserve). Benchmarks raise it. */
  budgetBytes?: number;
};
