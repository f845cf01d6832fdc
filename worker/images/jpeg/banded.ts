// A JPEG writer whose memory does not grow with the image: baseline output in bands, for images whose
// progressive encoder (every coefficient of the image held until the scans are written: 3 B/px at 4:2:0,
// 75 MB at 25 MP) does not fit beside the rest of the job (PNG to JPG of 14-25 MP PNGs).
//
// Each band of BAND_ROWS rows is encoded by MozJPEG on its own (trellis, the same quantisation tables at
// the same quality: libjpeg quantises and trellis-optimises block by block, and its 4:2:0 downsampling
// averages within the 16-row MCU, so a band's blocks are those of the whole image), transcoded losslessly
// to baseline with the standard Huffman tables, and its entropy-coded segment appended to one file:
// restart markers between bands (DRI = the MCUs of one band) reset the DC predictors exactly where each
// band's own scan started from zero, and every band uses the same tables, so the segments join into one
// valid baseline JPEG without touching a bit. Cost against the progressive, optimised-table output:
// measured in the README (a few % more bytes); heap: one band's coefficients.
import { JpegEncoder, JpegOutputTooLarge, MozJpegError, transcodeJpeg } from './mozjpeg';

/** Rows per band: a multiple of the 16-row MCU (4:2:0; 8 rows for grey). */
export const BAND_ROWS = 128;

export type BandedJpegWriter = {
  /** Packed RGB rows, top to bottom (any count). */
  write(rgb: Uint8Array, rows: number): void;
  /** The file (JPEG bytes). Past `maxBytes` of output, write/finish throw JpegOutputTooLarge. */
  finish(): Uint8Array;
  /** Bytes of output so far. */
  readonly bytes: number;
};

/** Heap the writer needs: one band's coefficients (x2 with trellis), its JPEG and the transcode. */
export function bandedWriterHeapBytes(width: number): number {
  const band = Math.ceil(width / 16) * (BAND_ROWS / 16) * 6 * 128;
  return band * 4 + (4 << 20);
}

export function createBandedJpegWriter(o: {
  width: number;
  height: number;
  quality: number;
  grayscale?: boolean;
  maxBytes?: number;
}): BandedJpegWriter {
  const { width: W, height: H } = o;
  const mcu = o.grayscale ? 8 : 16;
  const stride = W * 3;
  const band = new Uint8Array(BAND_ROWS * stride);
  const parts: Uint8Array[] = [];
  let header: Uint8Array | null = null;
  let filled = 0;
  let done = 0;
  let index = 0;
  let total = 0;

  const flush = () => {
    const rows = filled;
    const enc = new JpegEncoder({
      width: W,
      height: rows,
      quality: o.quality,
      grayscale: o.grayscale,
      trellis: true,
      optimizeScans: false,
    });
    let bandJpeg: Uint8Array;
    try {
      enc.write(band.subarray(0, rows * stride), rows);
      bandJpeg = enc.finish();
    } finally {
      enc.close();
    }
    const baseline = transcodeJpeg(bandJpeg, { progressive: false }).bytes;
    const { head, scanData } = split(baseline);
    if (!header) {
      header = withRestartInterval(withHeight(head, H), Math.ceil(W / mcu) * (BAND_ROWS / mcu));
      parts.push(header);
      total += header.length;
    } else if (!sameTables(header, head)) {
      throw new MozJpegError('banded JPEG: a band came with other tables');
    }
    if (index > 0) {
      const rst = new Uint8Array([0xff, 0xd0 + ((index - 1) & 7)]);
      parts.push(rst);
      total += 2;
    }
    parts.push(scanData);
    total += scanData.length;
    if (total > (o.maxBytes ?? Infinity)) throw new JpegOutputTooLarge(`output above ${o.maxBytes} bytes`);
    index++;
    done += rows;
    filled = 0;
  };

  return {
    get bytes() {
      return total;
    },
    write(rgb, rows) {
      for (let r = 0; r < rows;) {
        const n = Math.min(BAND_ROWS - filled, rows - r);
        band.set(rgb.subarray(r * stride, (r + n) * stride), filled * stride);
        filled += n;
        r += n;
        if (filled === BAND_ROWS) flush();
      }
    },
    finish() {
      if (filled > 0) flush();
      if (done !== H) throw new MozJpegError(`banded JPEG got ${done} of ${H} rows`);
      parts.push(new Uint8Array([0xff, 0xd9]));
      const out = new Uint8Array(total + 2);
      let off = 0;
      for (const p of parts) {
        out.set(p, off);
        off += p.length;
      }
      parts.length = 0;
      return out;
    },
  };
}

const be16 = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;

/** Headers up to and including the SOS segment, and the entropy-coded data up to EOI. */
function split(jpeg: Uint8Array): { head: Uint8Array; scanData: Uint8Array } {
  let i = 2;
  for (;;) {
    if (i + 4 > jpeg.length || jpeg[i] !== 0xff) throw new MozJpegError('banded JPEG: marker expected');
    const marker = jpeg[i + 1]!;
    const len = be16(jpeg, i + 2);
    if (marker === 0xc2 || marker === 0xc1) throw new MozJpegError('banded JPEG: band is not baseline');
    if (marker === 0xda) {
      const end = jpeg.length - 2;
      if (jpeg[end] !== 0xff || jpeg[end + 1] !== 0xd9) throw new MozJpegError('banded JPEG: no EOI');
      return { head: jpeg.subarray(0, i + 2 + len), scanData: jpeg.subarray(i + 2 + len, end) };
    }
    i += 2 + len;
  }
}

/** The header with SOF0's height set to the whole image's. */
function withHeight(head: Uint8Array, height: number): Uint8Array {
  const out = head.slice();
  let i = 2;
  while (i + 4 <= out.length) {
    const marker = out[i + 1]!;
    if (marker === 0xc0) {
      out[i + 5] = height >> 8;
      out[i + 6] = height & 0xff;
      return out;
    }
    i += 2 + be16(out, i + 2);
  }
  throw new MozJpegError('banded JPEG: no SOF0');
}

/** DRI before the SOS segment (the last segment of the header). */
function withRestartInterval(head: Uint8Array, mcus: number): Uint8Array {
  if (mcus > 0xffff) throw new MozJpegError('banded JPEG: image too wide for one restart interval per band');
  let i = 2;
  while (head[i + 1] !== 0xda) i += 2 + be16(head, i + 2);
  const dri = new Uint8Array([0xff, 0xdd, 0x00, 0x04, mcus >> 8, mcus & 0xff]);
  const out = new Uint8Array(head.length + dri.length);
  out.set(head.subarray(0, i));
  out.set(dri, i);
  out.set(head.subarray(i), i + dri.length);
  return out;
}

/** Whether a band's DQT and DHT segments are the first band's (the SOF height and DRI aside). */
function sameTables(first: Uint8Array, head: Uint8Array): boolean {
  const tables = (h: Uint8Array) => {
    const segs: string[] = [];
    let i = 2;
    while (i + 4 <= h.length && h[i + 1] !== 0xda) {
      const len = be16(h, i + 2);
      if (h[i + 1] === 0xdb || h[i + 1] === 0xc4) segs.push(Array.from(h.subarray(i, i + 2 + len)).join(','));
      i += 2 + len;
    }
    return segs.join('|');
  };
  return tables(first) === tables(head);
}
