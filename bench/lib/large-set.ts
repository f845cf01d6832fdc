// The large benchmark set, built at bench time from Debian wallpapers (nothing big is committed):
//   apt-get install -y plasma-workspace-wallpapers ukui-wallpapers
// - product-photo squares: every 5120x2880 (plasma) and 3640-3840 px (ukui) JPEG photo cropped (cover)
//   to 2048, 3000 and 4000 px squares, saved as camera-like JPEGs (q92, 4:2:0), and the plasma photos
//   whole (5120 x 2880);
// - the memory points: one photo at 4, 12 and 25 MP as JPEG, PNG and WebP;
// - the ukui PNG graphics as they ship (8.7-9.2 MP).
import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import sharp from 'sharp';

const PLASMA = ['Flow', 'Honeywave', 'SafeLanding', 'Shell', 'Volna'].map(
  (n) => `/usr/share/wallpapers/${n}/contents/images/5120x2880.jpg`,
);
const UKUI = '/usr/share/backgrounds';

export const SQUARES = [2048, 3000, 4000];
/** Sides of the 4, 12 and 25 MP memory points. */
export const MEMORY_POINTS = [2000, 3464, 5000];

export async function buildLargeSet(dir: string): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const photos = [
    ...PLASMA.filter(existsSync),
    ...(existsSync(UKUI)
      ? readdirSync(UKUI)
          .filter((f) => f.endsWith('.jpg'))
          .map((f) => join(UKUI, f))
      : []),
  ];
  if (photos.length === 0) throw new Error('no wallpapers: apt-get install -y plasma-workspace-wallpapers ukui-wallpapers');
  const made: string[] = [];
  const make = async (name: string, build: () => Promise<unknown>) => {
    const out = join(dir, name);
    if (!existsSync(out)) await build();
    made.push(name);
  };
  for (const src of photos) {
    const stem = src.includes('/wallpapers/') ? src.split('/')[4]! : basename(src, '.jpg');
    for (const side of SQUARES) {
      await make(`photo-jpg_${stem}-${side}.jpg`, () =>
        sharp(src)
          .resize(side, side, { fit: 'cover' })
          .jpeg({ quality: 92 })
          .toFile(join(dir, `photo-jpg_${stem}-${side}.jpg`)),
      );
    }
    // The whole 5120 x 2880 frame as well: its display scale is 3 (the guard's 3/8 DCT-scaled decode).
    if (src.includes('/wallpapers/'))
      await make(`photo-jpg_${stem}-5120x2880.jpg`, () =>
        sharp(src)
          .jpeg({ quality: 92 })
          .toFile(join(dir, `photo-jpg_${stem}-5120x2880.jpg`)),
      );
  }
  const memSrc = PLASMA.find((p) => p.includes('Shell') && existsSync(p)) ?? photos[0]!;
  for (const side of MEMORY_POINTS) {
    const mp = Math.round((side * side) / 1e6);
    const img = () => sharp(memSrc).resize(side, side, { fit: 'cover' });
    await make(`mem-jpg_${mp}mp.jpg`, () =>
      img()
        .jpeg({ quality: 92 })
        .toFile(join(dir, `mem-jpg_${mp}mp.jpg`)),
    );
    // As a camera app or editor writes them: filtered, zlib level 9 (sharp's default is unfiltered).
    await make(`mem-png_${mp}mp.png`, () =>
      img()
        .png({ compressionLevel: 9, adaptiveFiltering: true })
        .toFile(join(dir, `mem-png_${mp}mp.png`)),
    );
    await make(`mem-webp_${mp}mp.webp`, () =>
      img()
        .webp({ quality: 90 })
        .toFile(join(dir, `mem-webp_${mp}mp.webp`)),
    );
  }
  if (existsSync(UKUI)) {
    for (const f of readdirSync(UKUI).filter((n) => n.endsWith('.png'))) {
      await make(`graphic-png_${f}`, async () => copyFileSync(join(UKUI, f), join(dir, `graphic-png_${f}`)));
    }
  }
  return made.sort();
}

/** Bytes native MozJPEG (sharp, mozjpeg: true) makes of a JPEG at q75: the reference saving. */
export async function nativeMozjpegBytes(input: Uint8Array, quality = 75): Promise<number> {
  const out = await sharp(input).jpeg({ quality, mozjpeg: true }).toBuffer();
  return out.length;
}
