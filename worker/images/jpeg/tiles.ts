// Progressive JPEG originals too large to hold whole (a 4:4:4 progressive file keeps 6 B/px of DCT
// coefficients while it decodes: 100 MB at 16.8 MP, 150 MB at 25 MP). The original is cut, without
// touching a coefficient, into a few baseline tiles (bands of iMCU rows, `transcodeJpegTile`): each pass
// parses the whole file but keeps only its band's coefficients. Decoding the tiles one after another
// (`TiledJpegDecoder`) gives exactly the original's pixels, strip by strip, like `JpegDecoder`; where the
// chroma is upsampled vertically (4:2:0, 4:4:0) tiles overlap by one iMCU row, which is decoded for
// context and dropped.
import { JpegDecoder, STRIP_ROWS, transcodeJpegTile, type JpegHeader, type RowStrips } from './mozjpeg';

/** What the lossy path reads its source rows from: a whole decoder or the tiles. */
export type RowSource = RowStrips;

export type JpegTile = { bytes: Uint8Array; skipRows: number; rows: number };
export type JpegTiles = { width: number; height: number; tiles: JpegTile[]; bytes: number };

/** Bytes of the per-block nonzero masks the band decoder keeps for the whole image (8 B per block). */
export function tileMaskBytes(info: JpegHeader): number {
  return info.coefBytes / 16;
}

/**
 * Cuts a progressive JPEG into tiles of at most `bandBytes` of coefficients each (at least 2 iMCU rows).
 * The tiles together may take at most `maxBytes` (JpegOutputTooLarge beyond: the caller's budget).
 */
export function makeJpegTiles(input: Uint8Array, info: JpegHeader, bandBytes: number, maxBytes = Infinity): JpegTiles {
  const imcuH = 8 * info.maxV;
  const total = Math.ceil(info.height / imcuH);
  const margin = info.maxV > 1 ? 1 : 0; // vertical fancy upsampling reads the neighbouring chroma row
  const band = bandRows(info, bandBytes);
  const tiles: JpegTile[] = [];
  let bytes = 0;
  for (let f = 0; f < total; f += band) {
    const n = Math.min(band, total - f);
    const first = Math.max(0, f - margin);
    const end = Math.min(total, f + n + margin);
    const t = transcodeJpegTile(input, first, end - first, maxBytes - bytes);
    bytes += t.length;
    tiles.push({ bytes: t, skipRows: (f - first) * imcuH, rows: Math.min(n * imcuH, info.height - f * imcuH) });
  }
  return { width: info.width, height: info.height, tiles, bytes };
}

/**
 * iMCU rows per tile for a band of `bandBytes` (overlap included). Tiles are cut at multiples of 128
 * pixel rows, so at every DCT scale M/8 a tile holds whole 16-row strips and the guard's two decoders
 * (tiles and candidate) stay in step.
 */
function bandRows(info: JpegHeader, bandBytes: number): number {
  const imcuH = 8 * info.maxV;
  const total = Math.ceil(info.height / imcuH);
  const margin = info.maxV > 1 ? 1 : 0;
  const unit = 128 / imcuH;
  const rows = Math.floor(bandBytes / (info.coefBytes / total)) - 2 * margin;
  return Math.max(unit, Math.floor(rows / unit) * unit);
}

/** Tiles per band size. */
export function tilesFor(info: JpegHeader, bandBytes: number): number {
  return Math.ceil(Math.ceil(info.height / (8 * info.maxV)) / bandRows(info, bandBytes));
}

/** The tiles decoded one after another as one image (DCT scaling as JpegDecoder: scaleNum/scaleDenom). */
export class TiledJpegDecoder implements RowSource {
  readonly width: number;
  readonly height: number;
  readonly channels: 1 | 3;
  private i = 0;
  private dec: JpegDecoder | null = null;
  private skip = 0;
  private left = 0;
  private warnings = 0;
  private readonly num: number;
  private readonly den: number;
  private readonly luma: boolean;
  private readonly ycc: boolean;
  readonly outputYcc: boolean;

  constructor(
    private readonly t: JpegTiles,
    opts: { scaleNum?: number; scaleDenom?: number; luma?: boolean; ycc?: boolean } = {},
  ) {
    this.num = opts.scaleNum ?? 1;
    this.den = opts.scaleDenom ?? 1;
    this.luma = opts.luma ?? false;
    this.ycc = opts.ycc ?? false;
    this.open();
    this.width = this.dec!.width;
    this.channels = this.dec!.channels;
    this.outputYcc = this.dec!.outputYcc;
    this.height = Math.ceil((t.height * this.num) / this.den);
  }

  private open(): void {
    const tile = this.t.tiles[this.i]!;
    this.dec = new JpegDecoder(tile.bytes, {
      scaleNum: this.num,
      scaleDenom: this.den as 1 | 2 | 4 | 8,
      luma: this.luma,
      ycc: this.ycc,
    });
    this.skip = (tile.skipRows * this.num) / this.den;
    const last = this.i === this.t.tiles.length - 1;
    this.left = last ? this.dec.height - this.skip : (tile.rows * this.num) / this.den;
  }

  read(max = STRIP_ROWS): number {
    for (;;) {
      if (!this.dec) {
        if (this.i >= this.t.tiles.length) return 0;
        this.open();
      }
      const dec = this.dec!;
      while (this.skip > 0) {
        const n = dec.read(Math.min(this.skip, STRIP_ROWS));
        if (n === 0) throw new Error('JPEG tile ends early');
        this.skip -= n;
      }
      if (this.left > 0) {
        const n = dec.read(Math.min(max, this.left, STRIP_ROWS));
        if (n === 0) throw new Error('JPEG tile ends early');
        this.left -= n;
        return n;
      }
      this.warnings += dec.finish().warnings;
      dec.close();
      this.dec = null;
      this.i++;
    }
  }

  rows(count?: number): Uint8Array {
    return this.dec!.rows(count);
  }

  finish(): { warnings: number; truncated: boolean } {
    return { warnings: this.warnings, truncated: false };
  }

  close(): void {
    this.dec?.close();
    this.dec = null;
    this.i = this.t.tiles.length;
  }
}
