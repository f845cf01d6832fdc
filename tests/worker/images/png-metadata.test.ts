import { describe, expect, it } from 'vitest';
import { optimiseImage } from '../../../worker/images';
import { decodePng } from '../../../worker/images/jsquash';
import { concat } from '../../../worker/images/jpeg/markers';
import { ascii, be32 } from '../../../worker/images/sniff';
import { fixture } from './fixtures';
import { lossless, lossy, maxChannelDiff, optimised } from './helpers';

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc = (b: Uint8Array) => {
  let c = 0xffffffff;
  for (const x of b) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

function chunk(type: string, data: Uint8Array): Uint8Array {
  const body = concat([new TextEncoder().encode(type), data]);
  const out = new Uint8Array(12 + data.length);
  new DataView(out.buffer).setUint32(0, data.length);
  out.set(body, 4);
  new DataView(out.buffer).setUint32(8 + data.length, crc(body));
  return out;
}

function chunkTypes(png: Uint8Array): string[] {
  const types: string[] = [];
  for (let i = 8; i + 8 <= png.length; i += 12 + be32(png, i)) types.push(ascii(png, i + 4, 4));
  return types;
}

/** The fixture with a text comment and an sRGB colour chunk inserted after IHDR. */
function withMetadata(png: Uint8Array): Uint8Array {
  const at = 8 + 25;
  const text = chunk('tEXt', new TextEncoder().encode('Comment\0secret camera serial 1234'));
  const srgb = chunk('sRGB', new Uint8Array([0]));
  return concat([png.subarray(0, at), srgb, text, png.subarray(at)]);
}

describe('PNG metadata', () => {
  it('lossless drops text chunks, keeps the colour chunk, pixels identical', async () => {
    const input = withMetadata(fixture('chelsea-rgb.png'));
    expect(chunkTypes(input)).toEqual(expect.arrayContaining(['tEXt', 'sRGB']));
    const r = optimised(await optimiseImage(input, lossless()));
    const types = chunkTypes(r.bytes);
    expect(types).not.toContain('tEXt');
    expect(types).toContain('sRGB');
    expect(maxChannelDiff(decodePng(input), decodePng(r.bytes))).toBe(0);
  });

  it('a PNG rebuilt from pixels (watermark) carries the colour chunk over', async () => {
    const input = withMetadata(fixture('chelsea-rgb.png'));
    const logo = fixture('horse-alpha.png');
    const r = optimised(
      await optimiseImage(input, lossy(75, { watermark: { bytes: logo, position: 'c', heightFraction: 0.3, opacity: 0.5 } })),
    );
    expect(r.format).toBe('png');
    expect(chunkTypes(r.bytes)).toContain('sRGB');
    expect(chunkTypes(r.bytes)).not.toContain('tEXt');
  });
});
