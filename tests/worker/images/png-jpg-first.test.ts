// PNG to JPG on the row-wise path (png/large.ts): the JPG is made first, and the PNG candidates (lossless
// re-encode, palette) are only written while they could still win. On a photo that means a few rows
// instead of a whole deflate and median-cut pass, and the statistics the PNG candidates need are gathered
// while the JPG is encoded (one read of the original fewer). The order must not change the choice: every case here
// runs both orders and compares the result byte for byte.
import { describe, expect, it } from 'vitest';
import type { Candidate } from '../../../worker/images/candidates';
import { largePngCandidates, largePngCounters } from '../../../worker/images/png/large';
import { createPngWriter } from '../../../worker/images/png/writer';
import { readHeader } from '../../../worker/images/sniff';
import type { EngineSettings } from '../../../worker/images/types';
import { lossless, lossy } from './helpers';

const W = 1024;
const H = 768;

type Fill = (x: number, y: number, out: Uint8Array, o: number) => void;

/** Photo-like: smooth light with sensor-like noise (the JPG wins by far). */
const photo: Fill = (x, y, out, o) => {
  const t = ((Math.imul(x * 7919 + y, 0x9e3779b1) >>> 27) & 7) - 3;
  out[o] = 40 + (x >> 3) + t;
  out[o + 1] = 30 + (y >> 3) - t;
  out[o + 2] = 60 + ((x + y) >> 4) + t;
  out[o + 3] = 255;
};
/** A flat graphic with +-1 noise (> 256 colours; a palette PNG wins). */
const graphic: Fill = (x, y, out, o) => {
  const n = ((x * 7 + y * 13) % 3) - 1;
  const [r, g, b] = x < 500 ? (y < 400 ? [200, 40, 40] : [30, 30, 160]) : y < 300 ? [250, 250, 245] : [20, 140, 60];
  out[o] = r + n;
  out[o + 1] = g + n;
  out[o + 2] = b - n;
  out[o + 3] = 255;
};
/** One colour as a 1-bit palette PNG: a few hundred bytes, the JPG not smaller than the original. */
async function flatPng(): Promise<Uint8Array> {
  const w = createPngWriter({ width: W, height: H, bitDepth: 1, colourType: 3, palette: new Uint8Array([90, 120, 150]) });
  const row = new Uint8Array(W / 8);
  for (let y = 0; y < H; y++) await w.writeRow(row);
  return w.finish();
}

async function makePng(fill: Fill): Promise<Uint8Array> {
  const w = createPngWriter({ width: W, height: H, bitDepth: 8, colourType: 6 });
  const row = new Uint8Array(W * 4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) fill(x, y, row, x * 4);
    await w.writeRow(row);
  }
  return w.finish();
}

type Run = { best: Candidate | null; note?: string; pngRows: number; jpegEncodes: number; passes: number };
async function run(input: Uint8Array, s: EngineSettings, jpgFirst: boolean): Promise<Run> {
  largePngCounters.jpgFirst = jpgFirst;
  largePngCounters.pngRows = 0;
  largePngCounters.jpegEncodes = 0;
  largePngCounters.passes = 0;
  try {
    const r = await largePngCandidates(input, readHeader(input, 'png'), s, 'on');
    return {
      ...r,
      pngRows: largePngCounters.pngRows,
      jpegEncodes: largePngCounters.jpegEncodes,
      passes: largePngCounters.passes,
    };
  } finally {
    largePngCounters.jpgFirst = true;
  }
}

/** Both orders; the same candidate with the same bytes. */
async function both(input: Uint8Array, s: EngineSettings): Promise<{ before: Run; after: Run }> {
  const before = await run(input, s, false);
  const after = await run(input, s, true);
  expect(after.best?.format).toBe(before.best?.format);
  expect(after.best?.qualityUsed).toBe(before.best?.qualityUsed);
  expect(after.best?.bytes.length).toBe(before.best?.bytes.length);
  expect(after.best!.bytes).toEqual(before.best!.bytes);
  expect(after.jpegEncodes).toBe(before.jpegEncodes);
  return { before, after };
}

describe('PNG to JPG, row-wise: the JPG first, PNG candidates only while they can win', () => {
  it('a photo: the same JPG, and the PNG writers stop before the last strip', { timeout: 120_000 }, async () => {
    const input = await makePng(photo);
    const { before, after } = await both(input, lossy(75, { pngToJpg: true }));
    expect(after.best!.format).toBe('jpeg');
    expect(before.pngRows).toBe(H); // the wasted pass: every row deflated and palette-mapped
    expect(after.pngRows).toBeLessThan(H);
    // Before: statistics, PNG candidates, JPG encode, guard. After: the statistics ride on the JPG's encode.
    expect(before.passes).toBe(4);
    expect(after.passes).toBe(3);
  });

  it('a photo without size control: the JPG wins unread by any PNG writer', { timeout: 120_000 }, async () => {
    const input = await makePng(photo);
    const { after } = await both(input, lossy(75, { pngToJpg: true, pngToJpgSizeControl: false }));
    expect(after.best!.format).toBe('jpeg');
    expect(after.pngRows).toBe(0);
    expect(after.passes).toBe(2); // the JPG's encode and its guard: no statistics, no PNG candidate
  });

  it('a photo in lossless mode with PNG to JPG (q90): the same JPG', { timeout: 120_000 }, async () => {
    const input = await makePng(photo);
    const { after } = await both(input, lossless({ pngToJpg: true }));
    expect(after.best!.format).toBe('jpeg');
    expect(after.best!.qualityUsed).toBe(90);
    expect(after.pngRows).toBeLessThan(H);
  });

  it('a flat graphic: the same PNG wins (palette kept), and its note', { timeout: 120_000 }, async () => {
    const input = await makePng(graphic);
    const { before, after } = await both(input, lossy(75, { pngToJpg: true }));
    expect(after.best!.format).toBe('png');
    expect(after.note).toBe(before.note);
  });

  it('one colour: a JPG no smaller than the original leaves the same PNG and note', { timeout: 120_000 }, async () => {
    const input = await flatPng();
    for (const sizeControl of [true, false]) {
      const { before, after } = await both(input, lossy(75, { pngToJpg: true, pngToJpgSizeControl: sizeControl }));
      expect(after.best!.format).toBe('png');
      expect(after.note).toBe(before.note);
      expect(after.note).toMatch(sizeControl ? /^JPG skipped/ : /^JPG not smaller than the original/);
    }
  });
});
