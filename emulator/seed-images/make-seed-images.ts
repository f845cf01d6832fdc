// Rebuilds the seed images from ../shared/corpus (permissive rows of MANIFEST.tsv only), downscaled and,
// for the PNG photographs, re-encoded as the high-quality JPEGs merchants typically upload.
// Run once by hand: npx tsx emulator/seed-images/make-seed-images.ts
import { copyFileSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';

const CORPUS = join(import.meta.dirname, '../../../shared/corpus');
const OUT = import.meta.dirname;

type Recipe = { from: string; to: string; width?: number; format: 'jpeg' | 'png'; quality?: number };
const RECIPES: Recipe[] = [
  { from: 'photo-jpg_skimage-rocket.jpg', to: 'rocket.jpg', format: 'jpeg', quality: 95 },
  { from: 'photo-png_wesaturate-keong_macan.png', to: 'keong-macan.jpg', format: 'jpeg', quality: 95 },
  { from: 'photo-png_wesaturate-riaphotographs.png', to: 'riaphotographs.jpg', format: 'jpeg', quality: 95 },
  { from: 'photo-png_skimage-astronaut.png', to: 'astronaut.jpg', format: 'jpeg', quality: 95 },
  { from: 'photo-png_skimage-chelsea.png', to: 'chelsea.jpg', format: 'jpeg', quality: 95 },
  { from: 'photo-png_skimage-chelsea.png', to: 'chelsea.png', format: 'png' },
  { from: 'photo-png_jxl-flower.png', to: 'flower.jpg', width: 1400, format: 'jpeg', quality: 92 },
  { from: 'alpha-photo-png_jxl-flower_alpha.png', to: 'flower-alpha.png', width: 480, format: 'png' },
  { from: 'alpha-photo-png_wesaturate-riaphotographs_alpha.png', to: 'riaphotographs-alpha.png', format: 'png' },
  { from: 'alpha-graphic-png_skimage-logo.png', to: 'skimage-logo.png', format: 'png' },
  { from: 'alpha-graphic-png_skimage-horse.png', to: 'horse.png', format: 'png' },
  { from: 'graphic-png_sway-blue.png', to: 'sway-blue.png', width: 1024, format: 'png' },
];

mkdirSync(OUT, { recursive: true });
for (const r of RECIPES) {
  if (r.format === 'png' && !r.width) {
    // Untouched PNGs are copied byte for byte: re-encoding would only make them larger.
    copyFileSync(join(CORPUS, r.from), join(OUT, r.to));
    console.log(`${r.to}\tcopied\t${statSync(join(OUT, r.to)).size} bytes`);
    continue;
  }
  let img = sharp(join(CORPUS, r.from));
  if (r.width) img = img.resize({ width: r.width });
  img =
    r.format === 'jpeg'
      ? img.flatten({ background: '#ffffff' }).jpeg({ quality: r.quality ?? 92, mozjpeg: false })
      : img.png({ compressionLevel: 9, adaptiveFiltering: true });
  const info = await img.toFile(join(OUT, r.to));
  console.log(`${r.to}\t${info.width}x${info.height}\t${info.size} bytes`);
}
