// npm run bench:store -- [--large DIR] [--only NAME,...] [--limit N] [--json FILE] [--no-butteraugli] [--timeout-min 60]
//                         [--commit REF] [--log FILE] [--keep DIR] [--markdown]
//
// Issue 16 measured through the product itself, not the engine alone: `npm start` on free ports (its
// own WRANGLER_STATE), each >= 6 MP photo of the large set added as a product of the dev store through
// the emulator's control API, Medium saved the way the settings sheet saves it, "Optimize now" from the
// manual list with the calls the admin's manual modal makes, the job followed with the progress panel's
// call; then the bytes the store serves for each image are fetched and scored against the original:
// decodes, saved %, the engine's block SSIM, butteraugli 3-norm (when installed), beside native MozJPEG
// q75 (sharp mozjpeg: true) on the same original. Prints one line per image, medians, the ratio
// product/native, workerd's peak RSS and CPU during the job. --commit REF runs `npm start` in a clean
// export of that commit (node_modules linked) instead of this working tree (others' half-made edits in a
// shared tree would be bundled, and wrangler reloads on every save); --log keeps npm start's output,
// --keep DIR the served and native files, --markdown prints the table for a README. Needs the wallpapers
// of the large set:
//   apt-get install -y plasma-workspace-wallpapers ukui-wallpapers   (butteraugli: libjxl-devtools)
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { buildLargeSet } from './lib/large-set';
import { median } from './lib/report';
import {
  addProduct,
  isRunning,
  itemImages,
  manualList,
  optimiseNow,
  productSchedule,
  saveMediumSettings,
  servedBytes,
  storeProducts,
  type TabSchedule,
} from './lib/store-admin';
import {
  exportCommit,
  freePort,
  sampleWorkerd,
  startProduct,
  stopProduct,
  type RunningProduct,
  type WorkerdFigures,
} from './lib/store-product';
import { butteraugli, checkDecodes, engineSsim, findButteraugli, nativeQ75, type Butteraugli } from './lib/store-score';

const { values: args } = parseArgs({
  options: {
    large: { type: 'string', default: join(tmpdir(), 'bench-large') },
    only: { type: 'string' },
    limit: { type: 'string' },
    json: { type: 'string' },
    'no-butteraugli': { type: 'boolean', default: false },
    'timeout-min': { type: 'string', default: '60' },
    commit: { type: 'string' },
    log: { type: 'string' },
    keep: { type: 'string' },
    markdown: { type: 'boolean', default: false },
  },
});

const TITLE_PREFIX = 'bench-store';
const MIN_MP = 6;
/** The full 5120x2880 Plasma wallpapers (14.7 MP) beside the large set's 9 and 16 MP squares. */
const fullWallpaper = (stem: string) => `/usr/share/wallpapers/${stem}/contents/images/5120x2880.jpg`;

type Photo = { name: string; path: string; megapixels: number };

export type StoreRecord = {
  name: string;
  megapixels: number;
  bytesIn: number;
  bytesOut: number;
  saved: number;
  changed: boolean;
  decodes: boolean;
  decodeError?: string;
  status: string;
  engineSsim: number;
  nativeBytes: number;
  nativeSaved: number;
  nativeSsim: number;
  butteraugli: Butteraugli | null;
  nativeButteraugli: Butteraugli | null;
  appStatus?: string;
};

/** The large set's >= 6 MP JPEG photos: its 3000 and 4000 px squares, plus the full Plasma wallpapers. */
async function photos(): Promise<Photo[]> {
  const made = await buildLargeSet(args.large);
  const squares = made
    .filter((n) => /^photo-jpg_.+-(3000|4000)\.jpg$/.test(n))
    .map((n) => ({ name: n.replace(/^photo-jpg_|\.jpg$/g, ''), path: join(args.large, n) }));
  const stems = [...new Set(made.map((n) => /^photo-jpg_(.+)-\d+\.jpg$/.exec(n)?.[1]).filter((s): s is string => !!s))];
  const full = stems.filter((s) => existsSync(fullWallpaper(s))).map((s) => ({ name: `${s}-5120x2880`, path: fullWallpaper(s) }));
  const out: Photo[] = [];
  for (const p of [...squares, ...full]) {
    const m = await sharp(p.path).metadata();
    const megapixels = ((m.width ?? 0) * (m.height ?? 0)) / 1e6;
    if (m.format === 'jpeg' && megapixels >= MIN_MP) out.push({ ...p, megapixels });
  }
  const only = args.only
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const picked = only?.length ? out.filter((p) => only.some((o) => p.name.includes(o))) : out;
  picked.sort((a, b) => a.name.localeCompare(b.name));
  return args.limit ? picked.slice(0, Number(args.limit)) : picked;
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)} %` : '-');
const ssim = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '-').padStart(6);
const ba = (b: Butteraugli | null) =>
  b && Number.isFinite(b.pnorm3) ? b.pnorm3.toFixed(2) : b && Number.isFinite(b.max) ? `max ${b.max.toFixed(2)}` : '-';

/**
 * The native reference's scores depend only on the original and sharp's MozJPEG, not on the product: kept
 * in the large set's folder (keyed by both files' hashes), so a rerun after an engine change scores only
 * the product's bytes.
 */
async function nativeScores(
  original: Uint8Array,
  native: Uint8Array,
  tool: Butteraugli['tool'] | null,
): Promise<{ ssim: number; butteraugli: Butteraugli | null }> {
  const file = join(args.large, 'bench-store-native-scores.json');
  const cache = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, { ssim: number; butteraugli: Butteraugli | null }>)
    : {};
  const key = `${sha256(original)}:${sha256(native)}`;
  const hit = cache[key];
  if (hit && (!tool || hit.butteraugli?.tool === tool)) return { ssim: hit.ssim, butteraugli: tool ? hit.butteraugli : null };
  const fresh = {
    ssim: await engineSsim(original, native),
    butteraugli: tool ? await butteraugli(tool, original, native) : null,
  };
  if (tool) writeFileSync(file, JSON.stringify({ ...cache, [key]: fresh }, null, 1));
  return fresh;
}

/** Waits until the app's catalogue lists every added product in the manual list (products/create synced). */
async function waitForManualRows(p: RunningProduct, titles: Set<string>): Promise<Map<string, number>> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const rows = await manualList(p, TITLE_PREFIX);
    const ids = new Map(rows.filter((r) => titles.has(r.title) && (r.un_opt_num ?? 1) > 0).map((r) => [r.title, r.id]));
    if (ids.size === titles.size) return ids;
    if (Date.now() > deadline) throw new Error(`the manual list shows ${ids.size} of ${titles.size} added products after 180 s`);
    await sleep(1000);
  }
}

/** Polls getOptSchedule as the progress panel does, until the Product tab's job ends. */
async function waitForJob(p: RunningProduct, timeoutMs: number): Promise<TabSchedule> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    const s = await productSchedule(p);
    const line = s
      ? `${s.status} ${s.opt_total - s.opt_in}/${s.opt_total} (done ${s.opt_done ?? '-'}, failed ${s.opt_failed ?? '-'})`
      : 'no schedule';
    if (line !== last) console.log(`  progress: ${line}`);
    last = line;
    if (s && !isRunning(s) && s.opt_total > 0) return s;
    if (Date.now() > deadline) throw new Error(`the job did not finish within ${timeoutMs / 60000} min (last: ${line})`);
    await sleep(3000);
  }
}

async function main() {
  const set = await photos();
  if (set.length === 0)
    throw new Error(
      'no >= 6 MP JPEG photos selected (apt-get install -y plasma-workspace-wallpapers ukui-wallpapers; check --only)',
    );
  const tool = args['no-butteraugli'] ? null : await findButteraugli();
  console.log(
    `bench:store: ${set.length} photos of ${Math.min(...set.map((s) => s.megapixels)).toFixed(1)}-${Math.max(...set.map((s) => s.megapixels)).toFixed(1)} MP; butteraugli: ${tool ?? 'not used'}`,
  );

  const [port, emulatorPort] = [await freePort(), await freePort()];
  const state = mkdtempSync(join(tmpdir(), 'bench-store-state-'));
  console.log(`bench:store: npm start on :${port} (emulator :${emulatorPort}, state ${state})...`);
  const tree = args.commit ? exportCommit(args.commit) : null;
  if (tree) console.log(`bench:store: product at commit ${tree.commit.slice(0, 10)} (clean export in ${tree.dir})`);
  const cleanUp = () => {
    rmSync(state, { recursive: true, force: true });
    if (tree) rmSync(tree.dir, { recursive: true, force: true });
  };
  const product = await startProduct({ port, emulatorPort, state, cwd: tree?.dir }).catch((e: unknown) => {
    cleanUp();
    throw e;
  });
  const root = product.child.pid!;
  const originals = new Map<string, Uint8Array>();
  const served = new Map<string, { bytes: Uint8Array; status: string; appStatus?: string }>();
  let workerd: WorkerdFigures;
  let jobWallMs: number;
  let schedule: TabSchedule | undefined;
  try {
    console.log(`  admin ${product.base}/main (shop ${product.shop}); saving Medium (manual mode) in the settings`);
    await saveMediumSettings(product);

    const titles = new Map<string, Photo>();
    for (const photo of set) {
      const bytes = new Uint8Array(readFileSync(photo.path));
      const title = `${TITLE_PREFIX} ${photo.name}`;
      const added = await addProduct(product, title, bytes, `${photo.name}.jpg`);
      if (added.media[0]?.sha256 !== sha256(bytes)) throw new Error(`the store did not keep ${photo.name}'s bytes`);
      originals.set(title, bytes);
      titles.set(title, photo);
    }
    console.log(`  ${titles.size} products added; waiting for the manual list to show them`);
    const rows = await waitForManualRows(product, new Set(titles.keys()));

    const sampler = sampleWorkerd(root);
    const t0 = Date.now();
    const started = await optimiseNow(product, [...rows.values()]);
    console.log(`  Optimize now: job ${started.job_id}, ${started.total} images`);
    schedule = await waitForJob(product, Number(args['timeout-min']) * 60_000);
    jobWallMs = Date.now() - t0;
    workerd = sampler.stop();

    const inStore = await storeProducts(product);
    for (const [title, rowId] of rows) {
      const media = inStore.find((x) => x.title === title)?.media[0];
      if (!media) throw new Error(`${title} is gone from the store`);
      const detail = await itemImages(product, rowId).catch(() => []);
      served.set(title, {
        bytes: await servedBytes(media.url),
        status: media.status,
        appStatus: detail[0]?.status as string | undefined,
      }); // the image row's documented status text
    }
  } finally {
    await stopProduct(product.child);
    if (args.log) writeFileSync(args.log, product.log());
    cleanUp();
  }

  // Scored after the product stopped: butteraugli and the native encode do not share the CPUs with it.
  console.log(
    `\n${'image'.padEnd(26)} ${'MP'.padStart(5)} ${'original'.padStart(9)} ${'product'.padStart(9)} ${'saved'.padStart(7)} ${'native'.padStart(7)} ${'SSIM'.padStart(6)} ${'SSIM n'.padStart(6)} ${'BA prod'.padStart(7)} ${'BA nat'.padStart(7)}  store status`,
  );
  const records: StoreRecord[] = [];
  for (const [title, original] of originals) {
    const photo = [...set].find((s) => `${TITLE_PREFIX} ${s.name}` === title)!;
    const out = served.get(title)!;
    const decoded = await checkDecodes(out.bytes);
    const changed = sha256(out.bytes) !== sha256(original);
    const native = await nativeQ75(original);
    const nat = await nativeScores(original, native, tool);
    if (args.keep) {
      mkdirSync(args.keep, { recursive: true });
      writeFileSync(join(args.keep, `${photo.name}.product.jpg`), out.bytes);
      writeFileSync(join(args.keep, `${photo.name}.native-q75.jpg`), native);
    }
    const rec: StoreRecord = {
      name: photo.name,
      megapixels: photo.megapixels,
      bytesIn: original.length,
      bytesOut: out.bytes.length,
      saved: (original.length - out.bytes.length) / original.length,
      changed,
      decodes: decoded.ok,
      ...(decoded.ok ? {} : { decodeError: decoded.error }),
      status: out.status,
      appStatus: out.appStatus,
      engineSsim: decoded.ok ? (changed ? await engineSsim(original, out.bytes) : 1) : Number.NaN,
      nativeBytes: native.length,
      nativeSaved: (original.length - native.length) / original.length,
      nativeSsim: nat.ssim,
      butteraugli:
        tool && decoded.ok ? (changed ? await butteraugli(tool, original, out.bytes) : { tool, pnorm3: 0, max: 0 }) : null,
      nativeButteraugli: nat.butteraugli,
    };
    records.push(rec);
    console.log(
      `${rec.name.padEnd(26)} ${rec.megapixels.toFixed(1).padStart(5)} ${String(rec.bytesIn).padStart(9)} ${String(rec.bytesOut).padStart(9)} ${pct(rec.saved).padStart(7)} ${pct(rec.nativeSaved).padStart(7)} ` +
        `${ssim(rec.engineSsim)} ${ssim(rec.nativeSsim)} ${ba(rec.butteraugli).padStart(7)} ${ba(rec.nativeButteraugli).padStart(7)}  ` +
        `${rec.status}${rec.decodes ? '' : ' DOES NOT DECODE'}${rec.changed ? '' : ' unchanged'}${rec.appStatus !== undefined ? `, app: ${rec.appStatus}` : ''}`,
    );
  }

  const medSaved = median(records.map((r) => r.saved));
  const medNative = median(records.map((r) => r.nativeSaved));
  const tin = records.reduce((n, r) => n + r.bytesIn, 0);
  const totalSaved = (tin - records.reduce((n, r) => n + r.bytesOut, 0)) / tin;
  const totalNative = (tin - records.reduce((n, r) => n + r.nativeBytes, 0)) / tin;
  const baProd = records.map((r) => r.butteraugli?.pnorm3 ?? Number.NaN).filter(Number.isFinite);
  const baNat = records.map((r) => r.nativeButteraugli?.pnorm3 ?? Number.NaN).filter(Number.isFinite);
  const mp = records.reduce((n, r) => n + r.megapixels, 0);
  const summary = {
    images: records.length,
    medianSaved: medSaved,
    medianNativeSaved: medNative,
    ratio: medSaved / medNative,
    totalSaved,
    totalNativeSaved: totalNative,
    unchanged: records.filter((r) => !r.changed).length,
    notDecoding: records.filter((r) => !r.decodes).length,
    belowGuardFloor: records.filter((r) => r.changed && r.engineSsim < 0.97).length,
    medianButteraugli: median(baProd),
    worstButteraugli: baProd.length ? Math.max(...baProd) : Number.NaN,
    medianNativeButteraugli: median(baNat),
    job: schedule,
    jobWallMs,
    workerdCpuMsPerMp: workerd.cpuMs / mp,
    workerd,
  };
  console.log(
    `\nmedian saved: product ${pct(medSaved)}, native MozJPEG q75 ${pct(medNative)}: ratio ${(summary.ratio * 100).toFixed(1)} % (total ${pct(totalSaved)} vs ${pct(totalNative)})` +
      `\nbutteraugli 3-norm median: product ${Number.isFinite(summary.medianButteraugli) ? summary.medianButteraugli.toFixed(2) : '-'} (worst ${Number.isFinite(summary.worstButteraugli) ? summary.worstButteraugli.toFixed(2) : '-'}), native ${Number.isFinite(summary.medianNativeButteraugli) ? summary.medianNativeButteraugli.toFixed(2) : '-'}` +
      `\n${summary.unchanged} unchanged, ${summary.notDecoding} not decoding, ${summary.belowGuardFloor} changed below the guard floor 0.97; job ${schedule?.status} done ${schedule?.opt_done ?? '-'} failed ${schedule?.opt_failed ?? '-'} in ${(jobWallMs / 1000).toFixed(0)} s` +
      `\nworkerd: peak RSS during the job ${workerd.peakRssMb.toFixed(0)} MB (VmHWM ${workerd.hwmMb.toFixed(0)} MB, idle before the job ${workerd.idleRssMb.toFixed(0)} MB), CPU ${summary.workerdCpuMsPerMp.toFixed(0)} ms/MP (whole process: engine, guard, D1/R2, Shopify calls)` +
      (workerd.restarted
        ? '\nworkerd was restarted during the job (wrangler reload): VmHWM and CPU cover only what was sampled'
        : ''),
  );
  if (args.markdown) console.log(`\n${markdownTable(records)}`);
  if (args.json) writeFileSync(args.json, JSON.stringify({ summary, records }, null, 2));
  if (summary.notDecoding > 0) process.exitCode = 1;
}

function markdownTable(records: StoreRecord[]): string {
  const kb = (n: number) => `${Math.round(n / 1000)} KB`;
  const rows = records.map(
    (r) =>
      `| ${r.name} | ${r.megapixels.toFixed(1)} | ${kb(r.bytesIn)} | ${kb(r.bytesOut)} | ${pct(r.saved)} | ${pct(r.nativeSaved)} | ${ssim(r.engineSsim).trim()} / ${ssim(r.nativeSsim).trim()} | ${ba(r.butteraugli)} / ${ba(r.nativeButteraugli)} |`,
  );
  return [
    '| image | MP | original | product | saved | native q75 | block SSIM product / native | butteraugli product / native |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

main()
  .catch((e) => {
    console.error(`bench:store failed: ${(e as Error).message}`);
    process.exitCode = 1;
  })
  .finally(() => setTimeout(() => process.exit(), 500).unref());
