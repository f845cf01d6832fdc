// The store photo set (issue 24): real photographs of 6 MP and more, JPEG and PNG, fetched at bench time
// from Debian's packages (nothing is committed). No other image host is reachable from these machines; of
// the wallpaper packages Debian has, these are the ones that ship camera photographs of 6 MP and more
// (Plasma's and UKUI's large wallpapers, the old large set, are digital renders):
//   - lomiri-wallpapers-16.04: the Ubuntu Touch community photos (CC BY 4.0 / CC BY-SA 4.0 / CC0 1.0,
//     per file in the package's debian/copyright),
//   - lomiri-wallpapers-20.04: Kleiber by Lukas Baubkus (CC BY-SA 3.0),
//   - mate-backgrounds: Elephants, a painting by Wyng Stancikaite photographed at 5640x3172 (GPL-2+).
// The .debs are fetched with `apt-get download` (run `apt-get update` once first) into DIR/debs and
// unpacked there; the photos as shipped are the JPEG originals (their own quality and sampling, from q70
// 4:2:2 to q100), and the five largest also give non-overlapping crops of 6 MP and more, some saved as
// PNG (lossless, as an editor exports them) and some as camera-like JPEG (q92 4:2:0).
//
// Tune on one half, report the other: the split is by source photograph, so no held-out picture shares
// pixels with one the engine was tuned on.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';

export type SetHalf = 'tune' | 'held-out';

export type SetPhoto = {
  name: string;
  path: string;
  format: 'jpeg' | 'png';
  half: SetHalf;
  source: string;
  licence: string;
  width: number;
  height: number;
  megapixels: number;
};

type Source = { pkg: string; file: string; stem: string; licence: string; author: string; half: SetHalf; crops?: Crop[] };
/** A crop: column slice `i` of `n` equal vertical slices of the whole frame, saved as `format`. */
type Crop = { i: number; n: number; format: 'jpeg' | 'png' };

const L16 = 'lomiri-wallpapers-16.04';
const L20 = 'lomiri-wallpapers-20.04';
const MATE = 'mate-backgrounds';
const PKGS = [L16, L20, MATE];

const SOURCES: Source[] = [
  // tune
  {
    pkg: L20,
    file: 'usr/share/backgrounds/Kleiber_by_Lukas_Baubkus.jpg',
    stem: 'kleiber',
    licence: 'CC BY-SA 3.0',
    author: 'Lukas Baubkus',
    half: 'tune',
    crops: [
      { i: 0, n: 3, format: 'jpeg' },
      { i: 1, n: 3, format: 'png' },
      { i: 2, n: 3, format: 'png' },
    ],
  },
  {
    pkg: L16,
    file: 'usr/share/backgrounds/Dragonfly_by_Bolly.jpg',
    stem: 'dragonfly',
    licence: 'CC BY-SA 4.0',
    author: 'Bolly',
    half: 'tune',
    crops: [
      { i: 0, n: 2, format: 'jpeg' },
      { i: 1, n: 2, format: 'png' },
    ],
  },
  {
    pkg: L16,
    file: 'usr/share/backgrounds/Bridge_by_Sander_Klootwijk.jpg',
    stem: 'bridge',
    licence: 'CC BY-SA 4.0',
    author: 'Sander Klootwijk',
    half: 'tune',
  },
  {
    pkg: L16,
    file: 'usr/share/backgrounds/picosdeeuropa_by_Aitzol_Berasategi.jpg',
    stem: 'picosdeeuropa',
    licence: 'CC BY 4.0',
    author: 'Aitzol Berasategi',
    half: 'tune',
  },
  {
    pkg: L16,
    file: 'usr/share/backgrounds/friends_by_Aitzol_Berasategi.jpg',
    stem: 'friends',
    licence: 'CC BY 4.0',
    author: 'Aitzol Berasategi',
    half: 'tune',
  },
  {
    pkg: L16,
    file: 'usr/share/backgrounds/free_by_Peter_Nerlich.jpg',
    stem: 'free',
    licence: 'CC BY-SA 4.0',
    author: 'Peter Nerlich',
    half: 'tune',
  },
  {
    pkg: L16,
    file: 'usr/share/backgrounds/analogpattern_by_Peter_Nerlich.jpg',
    stem: 'analogpattern',
    licence: 'CC BY-SA 4.0',
    author: 'Peter Nerlich',
    half: 'tune',
  },
  // held out
  {
    pkg: L16,
    file: 'usr/share/backgrounds/seeding_by_Clements_Engelhardt.jpg',
    stem: 'seeding',
    licence: 'CC0 1.0',
    author: 'Clemens Engelhardt',
    half: 'held-out',
    crops: [
      { i: 0, n: 2, format: 'png' },
      { i: 1, n: 2, format: 'jpeg' },
    ],
  },
  {
    pkg: L16,
    file: 'usr/share/backgrounds/sunset_by_Aitzol_Berasategi.jpg',
    stem: 'sunset',
    licence: 'CC BY 4.0',
    author: 'Aitzol Berasategi',
    half: 'held-out',
    crops: [
      { i: 0, n: 2, format: 'jpeg' },
      { i: 1, n: 2, format: 'png' },
    ],
  },
  {
    pkg: MATE,
    file: 'usr/share/backgrounds/mate/abstract/Elephants_5640x3172.jpg',
    stem: 'elephants',
    licence: 'GPL-2+',
    author: 'Wyng Stancikaite',
    half: 'held-out',
    crops: [
      { i: 0, n: 2, format: 'png' },
      { i: 1, n: 2, format: 'jpeg' },
    ],
  },
  {
    pkg: L16,
    file: 'usr/share/backgrounds/Wine_by_Jakkub_Mede.jpg',
    stem: 'wine',
    licence: 'CC BY 4.0',
    author: 'Jakub Mede',
    half: 'held-out',
  },
  {
    pkg: L16,
    file: 'usr/share/backgrounds/aitzgorri_by_Aitzol_Berasategi.jpg',
    stem: 'aitzgorri',
    licence: 'CC BY 4.0',
    author: 'Aitzol Berasategi',
    half: 'held-out',
  },
  {
    pkg: L16,
    file: 'usr/share/backgrounds/life_by_Aitzol_Berasategi.jpg',
    stem: 'life',
    licence: 'CC BY 4.0',
    author: 'Aitzol Berasategi',
    half: 'held-out',
  },
  {
    pkg: L16,
    file: 'usr/share/backgrounds/greentock_by_Peter_Nerlich.jpg',
    stem: 'greentock',
    licence: 'CC BY-SA 4.0',
    author: 'Peter Nerlich',
    half: 'held-out',
  },
];

/** Fetches the three packages' .debs (apt-get download) and unpacks them under DIR/debs, once. */
function unpack(dir: string): string {
  const debs = join(dir, 'debs');
  const root = join(debs, 'root');
  mkdirSync(root, { recursive: true });
  for (const pkg of PKGS) {
    if (readdirSync(debs).some((f) => f.startsWith(`${pkg}_`) && f.endsWith('.deb'))) continue;
    try {
      execFileSync('apt-get', ['download', pkg], { cwd: debs, stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (e) {
      throw new Error(`apt-get download ${pkg} failed (run apt-get update once): ${(e as Error).message}`, { cause: e });
    }
  }
  for (const deb of readdirSync(debs).filter((f) => f.endsWith('.deb'))) {
    const stamp = join(root, `.${deb}.unpacked`);
    if (existsSync(stamp)) continue;
    execFileSync('dpkg-deb', ['-x', join(debs, deb), root]);
    writeFileSync(stamp, '');
  }
  return root;
}

/** Builds (once) and lists the set in DIR; `half` picks one half. */
export async function buildPhotoSet(dir: string, half?: SetHalf): Promise<SetPhoto[]> {
  mkdirSync(dir, { recursive: true });
  const root = unpack(dir);
  const out: SetPhoto[] = [];
  for (const s of SOURCES) {
    const src = join(root, s.file);
    if (!existsSync(src)) throw new Error(`${s.file} is not in ${s.pkg}`);
    const meta = await sharp(src).metadata();
    const [w, h] = [meta.width ?? 0, meta.height ?? 0];
    const source = `${s.pkg} (Debian): ${s.file.split('/').pop()} by ${s.author}`;
    const add = (name: string, path: string, format: 'jpeg' | 'png', width: number, height: number) =>
      out.push({
        name,
        path,
        format,
        half: s.half,
        source,
        licence: s.licence,
        width,
        height,
        megapixels: (width * height) / 1e6,
      });
    add(s.stem, src, 'jpeg', w, h);
    for (const c of s.crops ?? []) {
      const cw = Math.floor(w / c.n);
      const ext = c.format === 'png' ? 'png' : 'jpg';
      const name = `${s.stem}-${c.i + 1}of${c.n}`;
      const path = join(dir, `${name}.${ext}`);
      if (!existsSync(path)) {
        const img = sharp(src).extract({ left: c.i * cw, top: 0, width: cw, height: h });
        await (
          c.format === 'png'
            ? img.png({ compressionLevel: 9, adaptiveFiltering: true })
            : img.jpeg({ quality: 92, chromaSubsampling: '4:2:0' })
        ).toFile(path);
      }
      add(name, path, c.format, cw, h);
    }
  }
  for (const p of out) if (p.megapixels < 6) throw new Error(`${p.name} is ${p.megapixels.toFixed(1)} MP, below the set's 6 MP`);
  out.sort((a, b) => a.name.localeCompare(b.name));
  return half ? out.filter((p) => p.half === half) : out;
}
