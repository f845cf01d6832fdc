// Hostile files: uploads (uploadImagesOpt) and watermark pictures (saveSettings image_opt.watermark) with
// path tricks in their names, base64 that is not an image, image bombs (a few bytes declaring a huge
// picture) and watermarks over 512000 bytes. Each is refused with the documented message, no 500, and
// nothing is stored.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { MSG_WATERMARK_TOO_LARGE, WATERMARK_MAX_BYTES } from '../../../shared/image-settings';
import { toBase64 } from '../../../worker/lib/crypto';
import { call, createShop } from '../helpers';
import { FUZZ_RUNS, answerOf, expectRefused, fuzzTimeout, shopState } from './fuzz-support';

let headers: Record<string, string>;
let shopId: number;

beforeAll(async () => {
  const made = await createShop();
  headers = made.headers;
  shopId = made.shop.id;
});

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (b: Uint8Array) => {
  let c = 0xffffffff;
  for (const x of b) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const v = new DataView(out.buffer);
  v.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  v.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** A valid PNG header (correct CRCs) declaring width x height, with a tiny zlib stream and IEND. */
export function pngBomb(width: number, height: number): Uint8Array {
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
  const idat = new Uint8Array([0x78, 0x9c, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]);
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('IEND', new Uint8Array()),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** SOI, APP0, a baseline SOF0 declaring width x height (3 components), EOI: a JPEG bomb header. */
export function jpegBomb(width: number, height: number): Uint8Array {
  return new Uint8Array([
    0xff,
    0xd8,
    0xff,
    0xe0,
    0x00,
    0x10,
    0x4a,
    0x46,
    0x49,
    0x46,
    0x00,
    0x01,
    0x01,
    0x00,
    0x00,
    0x01,
    0x00,
    0x01,
    0x00,
    0x00,
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    0x03,
    0x01,
    0x22,
    0x00,
    0x02,
    0x11,
    0x01,
    0x03,
    0x11,
    0x01,
    0xff,
    0xd9,
  ]);
}

const PATH_TRICKS = [
  '../../../etc/passwd.png',
  '..%2F..%2Fsecret.jpg',
  'a/../../b.png',
  '\u0000.png',
  'x.png\u0000.exe',
  '%00.jpg',
  '..\\..\\win.ini.jpg',
  '/absolute.png',
  'C:\\x.jpg',
  '....//....//x.png',
  '.png',
  ' ',
];
const notImage = fc.oneof(
  fc
    .uint8Array({ minLength: 1, maxLength: 300 })
    .filter((b) => !(b[0] === 0x89 && b[1] === 0x50) && !(b[0] === 0xff && b[1] === 0xd8))
    .map(toBase64),
  fc.constantFrom(
    'not base64 at all!!',
    '====',
    'data:image/png;base64,%%%',
    btoa('<svg onload=alert(1)>'),
    btoa('GIF89a....'),
    btoa('%PDF-1.4'),
  ),
);

async function upload(files: { name: string; data: string }[]) {
  return answerOf(
    await call('/api/v2/image-opt/uploadImagesOpt', {
      method: 'POST',
      headers,
      json: { file_list: files, opt_cfg: { pngtojpg: 0, is_watermark: 0 } },
    }),
  );
}

async function saveWatermark(fileData: string, fileName: string) {
  return answerOf(
    await call('/api/v2/image-opt/saveSettings', {
      method: 'POST',
      headers,
      json: { image_opt: { switch: 1, product: 1, watermark: { switch: 1, file_data: fileData, file_name: fileName } } },
    }),
  );
}

describe('hostile uploads', { timeout: fuzzTimeout(60_000, FUZZ_RUNS * 4) }, () => {
  it('refuses files that are not images, whatever their name (path tricks included), and stores nothing', async () => {
    const before = await shopState(shopId);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.constantFrom(...PATH_TRICKS),
          fc.string({ maxLength: 30 }).map((s) => `${s}.png`),
        ),
        notImage,
        async (name, data) => {
          const a = await upload([{ name, data }]);
          expectRefused(a, `upload ${JSON.stringify(name)}`);
          expect(a.json?.message).toMatch(/couldn't be uploaded|upload/i);
        },
      ),
      { numRuns: FUZZ_RUNS * 4 },
    );
    expect(await shopState(shopId)).toBe(before);
  });

  // A 67-byte PNG can declare 100000 x 100000: the header decides (worker/images/declared-size.ts).
  it.each([
    ['PNG 100000 x 100000', () => pngBomb(100_000, 100_000)],
    ['PNG 2^31-1 x 2^31-1', () => pngBomb(0x7fffffff, 0x7fffffff)],
    ['JPEG 65500 x 65500', () => jpegBomb(65_500, 65_500)],
  ])('refuses an image bomb (%s) and stores nothing', async (_label, make) => {
    const before = await shopState(shopId);
    const a = await upload([{ name: 'bomb.png', data: toBase64(make()) }]);
    expectRefused(a, 'upload bomb');
    expect(a.json?.message).toContain('bomb.png is too large. Images can be at most 25 megapixels.');
    expect(await shopState(shopId)).toBe(before);
  });
});

describe('hostile watermark pictures', { timeout: fuzzTimeout(60_000, FUZZ_RUNS * 4) }, () => {
  it(`refuses a watermark over ${WATERMARK_MAX_BYTES} bytes with the documented message`, async () => {
    const before = await shopState(shopId);
    for (const size of [WATERMARK_MAX_BYTES + 1, WATERMARK_MAX_BYTES * 3]) {
      const big = pngBomb(10, 10);
      const bytes = new Uint8Array(size);
      bytes.set(big);
      const a = await saveWatermark(`data:image/png;base64,${toBase64(bytes)}`, 'logo.png');
      expectRefused(a, `watermark ${size}`);
      expect(a.json?.message).toBe(MSG_WATERMARK_TOO_LARGE);
    }
    expect(await shopState(shopId)).toBe(before);
  });

  it('refuses watermarks that are not pictures or have tricky names, and stores nothing', async () => {
    const before = await shopState(shopId);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('logo.png', ...PATH_TRICKS, 'logo.svg', 'logo.gif'), notImage, async (name, data) => {
        expectRefused(await saveWatermark(data, name), `watermark ${JSON.stringify(name)}`);
      }),
      { numRuns: FUZZ_RUNS * 4 },
    );
    expect(await shopState(shopId)).toBe(before);
  });

  // A logo within 500 KB declaring 100000 x 100000 is refused before anything is stored.
  it.each([
    ['PNG 100000 x 100000', () => pngBomb(100_000, 100_000)],
    ['JPEG 65500 x 65500', () => jpegBomb(65_500, 65_500)],
  ])('refuses a watermark image bomb (%s) and stores nothing', async (_label, make) => {
    const before = await shopState(shopId);
    const a = await saveWatermark(toBase64(make()), 'logo.png');
    expectRefused(a, 'watermark bomb');
    expect(a.json?.message).toBe('Watermark picture can be at most 25 megapixels.');
    expect(await shopState(shopId)).toBe(before);
  });
});
