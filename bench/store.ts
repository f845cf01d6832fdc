// npm run bench:store -- [--set photos|large] [--half held-out|tune|all] [--level low|medium|high] [--batch]
//                         [--only NAME,...] [--limit N] [--json FILE] [--no-butteraugli] [--timeout-min 60]
//                         [--commit REF] [--log FILE] [--keep DIR] [--markdown] [--photos DIR] [--large DIR]
//
// The engine measured through the product itself, not the engine alone: `npm start` on free ports (its
// own WRANGLER_STATE), each photo added as a product of the dev store through the emulator's control API,
// the level saved the way the settings sheet saves it (PNG to JPG on when the set has PNGs), "Optimize
// now" from the manual list with the calls the admin's manual modal makes, the job followed with the
// progress panel's call; then the bytes the store serves for each image are fetched and scored against
// the original: decodes, bytes against native MozJPEG at the same quality number (sharp mozjpeg: true),
// the engine's block SSIM, butteraugli 3-norm (when installed) for both.
//
// The set (issue 24): --set photos (default) is bench/lib/photo-set.ts, 25 real photographs of 6-20 MP,
// JPEG and PNG, from Debian's lomiri-wallpapers and mate-backgrounds packages (fetched with apt-get
// download at bench time, never committed), split by source photo into a half the engine may be tuned
// on and a held-out half (--half, default held-out) that the README reports. --set large is the older
// wallpaper-render set (bench/lib/large-set.ts; apt-get install -y plasma-workspace-wallpapers
// ukui-wallpapers).
//
// By default every image is its own "Optimize now" job, one after the other, so workerd's CPU time and
// RSS rise during that job are the image's (CPU ms/MP and peak memory columns). The webhooks the job makes
// the store send (products/update after our fileUpdate: a catalogue sync, the HTTP Worker's own invocation
// in production) are held during the job and delivered after it, their CPU printed apart; three jobs of a
// tiny JPEG measure the product's fixed cost per image job, and "less the fixed cost" takes it off each
// photo (a lower bound of the image Worker's isolate CPU: locally the same workerd also runs D1, R2 and
// the queues, and the HTTP Worker's reOptimize, which production runs outside that isolate); --batch sends them all
// as one job as a merchant's bulk run does (then only job-wide figures). The path column is the engine's
// own account of what it did (the `engine_result` line the optimise step logs). --commit REF runs `npm
// start` in a clean export of that commit (node_modules linked) instead of this working tree; --log
// keeps npm start's output, --keep DIR the served and native files, --markdown prints the table for a
// README. butteraugli: apt-get install -y libjxl-devtools.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { buildLargeSet } from './lib/large-set';
import { buildPhotoSet, type SetHalf } from './lib/photo-set';
import { median } from './lib/report';
import {
  addProduct,
  isRunning,
  itemImages,
  manualList,
  optimiseNow,
  productSchedule,
  saveLevelSettings,
  servedBytes,
  holdWebhooks,
  deliverWebhooks,
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
import { butteraugli, checkDecodes, engineSsim, findButteraugli, nativeMozjpeg, type Butteraugli } from './lib/store-score';

const { values: args } = parseArgs({
  options: {
    set: { type: 'string', default: 'photos' },
    half: { type: 'string', default: 'held-out' },
    level: { type: 'string', default: 'medium' },
    batch: { type: 'boolean', default: false },
    photos: { type: 'string', default: join(tmpdir(), 'bench-photos') },
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
const POLL_PROBES = 20;
const FIXED_PROBES = 3;
const MIN_MP = 6;
const LEVELS = { low: { level: 1, quality: 90 }, medium: { level: 2, quality: 75 }, high: { level: 3, quality: 70 } } as const;
const level = LEVELS[args.level as keyof typeof LEVELS];
if (!level) throw new Error(`--level is one of ${Object.keys(LEVELS).join(', ')}`);
/** The full 5120x2880 Plasma wallpapers (14.7 MP) beside the large set's 9 and 16 MP squares. */
const fullWallpaper = (stem: string) => `/usr/share/wallpapers/${stem}/contents/images/5120x2880.jpg`;

type Photo = { name: string; path: string; megapixels: number; format: 'jpeg' | 'png' };

/** What the engine said it did (the optimise step's `engine_result` log line). */
export type EngineLine = {
  kind: string;
  path?: string;
  format?: string;
  qualityUsed?: number;
  tiles?: number;
  note?: string;
  reason?: string;
};

export type StoreRecord = {
  name: string;
  format: 'jpeg' | 'png';
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
  engine?: EngineLine;
  /** One image per job: workerd's CPU during the job per megapixel, and its RSS rise over the idle Worker. */
  cpuMsPerMp?: number;
  /** The same less the product's fixed cost per image job (tiny-image jobs in the same run). */
  cpuLessFixedMsPerMp?: number;
  /** CPU ms of the catalogue sync the job's webhooks start (the HTTP Worker's), measured after the job. */
  webhookMs?: number;
  peakRiseMb?: number;
};

/** The set's photos of 6 MP and more: the photo set's half (default), or the older large set's JPEGs. */
async function photos(): Promise<Photo[]> {
  let out: Photo[] = [];
  if (args.set === 'photos') {
    const half = args.half === 'all' ? undefined : (args.half as SetHalf);
    if (half && half !== 'tune' && half !== 'held-out') throw new Error('--half is held-out, tune or all');
    out = (await buildPhotoSet(args.photos, half)).map((p) => ({
      name: p.name,
      path: p.path,
      megapixels: p.megapixels,
      format: p.format,
    }));
  } else if (args.set === 'large') {
    const made = await buildLargeSet(args.large);
    const squares = made
      .filter((n) => /^photo-jpg_.+-(3000|4000)\.jpg$/.test(n))
      .map((n) => ({ name: n.replace(/^photo-jpg_|\.jpg$/g, ''), path: join(args.large, n) }));
    const stems = [...new Set(made.map((n) => /^photo-jpg_(.+)-\d+\.jpg$/.exec(n)?.[1]).filter((s): s is string => !!s))];
    const full = stems
      .filter((s) => existsSync(fullWallpaper(s)))
      .map((s) => ({ name: `${s}-5120x2880`, path: fullWallpaper(s) }));
    for (const p of [...squares, ...full]) {
      const m = await sharp(p.path).metadata();
      const megapixels = ((m.width ?? 0) * (m.height ?? 0)) / 1e6;
      if (m.format === 'jpeg' && megapixels >= MIN_MP) out.push({ ...p, megapixels, format: 'jpeg' });
    }
  } else throw new Error('--set is photos or large');
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
const ba = (b: Butteraugli | null) =>
  b && Number.isFinite(b.pnorm3) ? b.pnorm3.toFixed(2) : b && Number.isFinite(b.max) ? `max ${b.max.toFixed(2)}` : '-';
const fixed = (x: number, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : '-');
/** The nearest-rank percentile (p in 0..1) of the finite values. */
function percentile(values: number[], p: number): number {
  const v = values.filter(Number.isFinite).sort((a, b) => a - b);
  return v.length ? v[Math.min(v.length - 1, Math.max(0, Math.ceil(p * v.length) - 1))]! : Number.NaN;
}
const worst = (values: number[]) => percentile(values, 1);
const pathOf = (e?: EngineLine) =>
  !e
    ? '-'
    : e.kind !== 'optimised'
      ? e.kind
      : `${e.path ?? '?'}${e.tiles ? `-tiles${e.tiles}` : ''} ${e.format ?? ''} ${e.qualityUsed ? `q${e.qualityUsed}` : 'pixels kept (transcode or stripped original)'}`;

/**
 * Scores depend only on the two files: kept in the set's folder (keyed by both files' hashes), so a rerun
 * scores only bytes it has not seen (the native reference always hits after the first run; the product's
 * output when the engine did not change).
 */
async function pairScores(
  original: Uint8Array,
  native: Uint8Array,
  tool: Butteraugli['tool'] | null,
): Promise<{ ssim: number; butteraugli: Butteraugli | null }> {
  const file = join(args.set === 'photos' ? args.photos : args.large, 'bench-store-native-scores.json');
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

/** The `engine_result` lines npm start printed so far, in order (the Worker's structured log). */
function engineLines(log: string): EngineLine[] {
  const out: EngineLine[] = [];
  for (const m of log.matchAll(/\{"level":"info","event":"engine_result".*\}/g)) {
    try {
      out.push(JSON.parse(m[0]) as EngineLine);
    } catch {
      // a line cut by the log's tail window
    }
  }
  return out;
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

/**
 * Polls getOptSchedule as the progress panel does, until the Product tab's job ends. `done` says the
 * job at hand has shown its work (a one-image job can end between two polls, and the finished job before
 * it reads the same).
 */
async function waitForJob(
  p: RunningProduct,
  timeoutMs: number,
  done: () => boolean,
  pollMs: number,
  quiet = false,
): Promise<{ schedule: TabSchedule; polls: number }> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  let sawRunning = false;
  for (let polls = 1; ; polls++) {
    const s = await productSchedule(p);
    const line = s
      ? `${s.status} ${s.opt_total - s.opt_in}/${s.opt_total} (done ${s.opt_done ?? '-'}, failed ${s.opt_failed ?? '-'})`
      : 'no schedule';
    if (line !== last && !quiet) console.log(`  progress: ${line}`);
    last = line;
    sawRunning ||= isRunning(s);
    if (s && !isRunning(s) && s.opt_total > 0 && (sawRunning || done())) return { schedule: s, polls };
    if (Date.now() > deadline) throw new Error(`the job did not finish within ${timeoutMs / 60000} min (last: ${line})`);
    await sleep(pollMs);
  }
}

type Served = {
  bytes: Uint8Array;
  status: string;
  appStatus?: string;
  engine?: EngineLine;
  cpuMsPerMp?: number;
  cpuLessFixedMsPerMp?: number;
  webhookMs?: number;
  peakRiseMb?: number;
};

async function main() {
  const set = await photos();
  if (set.length === 0) throw new Error('no photos of 6 MP and more selected (check --set, --half, --only)');
  const withPng = set.some((p) => p.format === 'png');
  const tool = args['no-butteraugli'] ? null : await findButteraugli();
  console.log(
    `bench:store: ${set.length} photos (${args.set}, ${args.set === 'photos' ? args.half : 'all'}; ${set.filter((p) => p.format === 'png').length} PNG) of ${Math.min(...set.map((s) => s.megapixels)).toFixed(1)}-${Math.max(...set.map((s) => s.megapixels)).toFixed(1)} MP; level ${args.level} (native MozJPEG q${level.quality}); butteraugli: ${tool ?? 'not used'}`,
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
  const served = new Map<string, Served>();
  const timeoutMs = Number(args['timeout-min']) * 60_000;
  let workerd: WorkerdFigures | undefined;
  let jobWallMs: number;
  let schedule: TabSchedule | undefined;
  let pollCostMs: number;
  let fixedCostMs = Number.NaN;
  try {
    console.log(
      `  admin ${product.base}/main (shop ${product.shop}); saving ${args.level} (manual mode, PNG to JPG ${withPng ? 'on' : 'off'})`,
    );
    await saveLevelSettings(product, level.level, withPng);

    const titles = new Map<string, Photo>();
    for (const photo of set) {
      const bytes = new Uint8Array(readFileSync(photo.path));
      const title = `${TITLE_PREFIX} ${photo.name}`;
      const added = await addProduct(product, title, bytes, `${photo.name}.${photo.format === 'png' ? 'png' : 'jpg'}`);
      if (added.media[0]?.sha256 !== sha256(bytes)) throw new Error(`the store did not keep ${photo.name}'s bytes`);
      originals.set(title, bytes);
      titles.set(title, photo);
    }
    // A warm-up product (1 MP JPEG and PNG crops of the first photo), optimised first and not counted: a
    // fresh workerd compiles and tiers up the codecs on its first images, which a Worker that optimises
    // image after image pays once.
    const warmTitle = `${TITLE_PREFIX} warm-up`;
    const warm = sharp(set[0]!.path).resize(1200, 800, { fit: 'cover' });
    const warmJpeg = new Uint8Array(await warm.clone().jpeg({ quality: 92 }).toBuffer());
    const warmPng = new Uint8Array(await warm.clone().png().toBuffer());
    await addProduct(product, warmTitle, warmJpeg, 'warm-up.jpg');
    // Not warm-up.png: PNG to JPG would rename it warm-up.jpg, which the JPEG warm-up already holds.
    if (withPng) await addProduct(product, `${warmTitle} png`, warmPng, 'warm-up-png.png');
    // The product's fixed cost per image job (queue, D1 and R2 writes, Shopify calls, the webhook our
    // fileUpdate sends, the HTTP Worker's reOptimize): tiny JPEGs whose engine work is negligible, each
    // its own job like the photos. Their median is what "less the fixed cost" takes off each photo.
    const fixedTitles: string[] = [];
    if (!args.batch)
      for (let i = 0; i < FIXED_PROBES; i++) {
        const tiny = await sharp(set[0]!.path)
          .extract({ left: 64 * i, top: 64 * i, width: 320, height: 240 })
          .jpeg({ quality: 92 })
          .toBuffer();
        const title = `${TITLE_PREFIX} fixed-cost ${i + 1}`;
        await addProduct(product, title, new Uint8Array(tiny), `fixed-cost-${i + 1}.jpg`);
        fixedTitles.push(title);
      }
    console.log(`  ${titles.size} products added; waiting for the manual list to show them`);
    const warmTitles = withPng ? [warmTitle, `${warmTitle} png`] : [warmTitle];
    const listed = await waitForManualRows(product, new Set([...titles.keys(), ...warmTitles, ...fixedTitles]));
    const warmBefore = engineLines(product.log()).length;
    await optimiseNow(
      product,
      warmTitles.map((t) => listed.get(t)!),
    );
    await waitForJob(product, timeoutMs, () => engineLines(product.log()).length >= warmBefore + warmTitles.length, 1000, true);
    const rows = new Map([...listed].filter(([t]) => titles.has(t)));
    // What one progress poll (getOptSchedule) costs workerd, so the image's figure can leave the bench's polls out.
    const pollSampler = sampleWorkerd(root);
    for (let i = 0; i < POLL_PROBES; i++) await productSchedule(product);
    pollCostMs = pollSampler.stop().cpuMs / POLL_PROBES;
    console.log(`  one progress poll costs workerd ${pollCostMs.toFixed(1)} CPU ms (left out of the per-image CPU)`);

    const perImage = new Map<
      string,
      { engine?: EngineLine; cpuMsPerMp?: number; cpuLessFixedMsPerMp?: number; webhookMs?: number; peakRiseMb?: number }
    >();
    const t0 = Date.now();
    if (args.batch) {
      const sampler = sampleWorkerd(root);
      const started = await optimiseNow(product, [...rows.values()]);
      console.log(`  Optimize now: job ${started.job_id}, ${started.total} images`);
      schedule = (await waitForJob(product, timeoutMs, () => false, 3000)).schedule;
      workerd = sampler.stop();
    } else {
      // One job per image, one after the other: the CPU and RSS rise during a job are that image's.
      // The webhooks our fileUpdate makes Shopify send (products/update) start a catalogue sync in the HTTP
      // Worker, an invocation of its own in production: they are held while the job runs and delivered
      // after it, their CPU measured apart (the webhook column).
      await holdWebhooks(product, true);
      const syncsDone = () => product.log().match(/"event":"catalogue_sync_message_done"/g)?.length ?? 0;
      const oneJob = async (rowId: number) => {
        const before = engineLines(product.log()).length;
        const sampler = sampleWorkerd(root);
        await optimiseNow(product, [rowId]);
        const job = await waitForJob(product, timeoutMs, () => engineLines(product.log()).length > before, 1000, true);
        schedule = job.schedule;
        const w = sampler.stop();
        const synced = syncsDone();
        const hooks = sampleWorkerd(root);
        const delivered = await deliverWebhooks(product);
        for (let t = Date.now(); delivered > 0 && syncsDone() <= synced && Date.now() - t < 10_000;) await sleep(200);
        await sleep(500);
        const webhookMs = hooks.stop().cpuMs;
        return {
          w,
          webhookMs,
          engine: engineLines(product.log())[before],
          net: Math.max(0, w.cpuMs - job.polls * pollCostMs),
        };
      };
      const fixedRuns: number[] = [];
      const fixedHooks: number[] = [];
      for (const t of fixedTitles) {
        const r = await oneJob(listed.get(t)!);
        fixedRuns.push(r.net);
        fixedHooks.push(r.webhookMs);
      }
      fixedCostMs = median(fixedRuns);
      console.log(
        `  the product's fixed cost per image job (${fixedRuns.length} jobs of a 0.08 MP JPEG): ${fixedRuns.map((x) => x.toFixed(0)).join(', ')} CPU ms, median ${fixedCostMs.toFixed(0)}; the webhooks each job sends: ${fixedHooks.map((x) => x.toFixed(0)).join(', ')} ms`,
      );
      let cpuMs = 0;
      let peak = 0;
      let idle = Number.POSITIVE_INFINITY;
      let restarted = false;
      let samples = 0;
      for (const [title, rowId] of rows) {
        const photo = titles.get(title)!;
        const { w, engine, net, webhookMs } = await oneJob(rowId);
        const rec = {
          engine,
          webhookMs,
          cpuMsPerMp: net / photo.megapixels,
          cpuLessFixedMsPerMp: Math.max(0, net - fixedCostMs) / photo.megapixels,
          peakRiseMb: w.peakRssMb - w.idleRssMb,
        };
        perImage.set(title, rec);
        cpuMs += net;
        peak = Math.max(peak, w.peakRssMb);
        idle = Math.min(idle, w.idleRssMb);
        restarted ||= w.restarted;
        samples += w.samples;
        console.log(
          `  ${photo.name.padEnd(22)} ${schedule?.status}, ${pathOf(engine)}, CPU ${rec.cpuMsPerMp.toFixed(0)} ms/MP (${rec.cpuLessFixedMsPerMp.toFixed(0)} less the fixed cost; its webhooks ${webhookMs.toFixed(0)} ms), RSS +${rec.peakRiseMb.toFixed(0)} MB${w.restarted ? ' (workerd restarted)' : ''}`,
        );
      }
      workerd = { peakRssMb: peak, hwmMb: peak, idleRssMb: idle, cpuMs, samples, restarted };
    }
    jobWallMs = Date.now() - t0;
    const lines = engineLines(product.log());

    const inStore = await storeProducts(product);
    for (const [title, rowId] of rows) {
      const media = inStore.find((x) => x.title === title)?.media[0];
      if (!media) throw new Error(`${title} is gone from the store`);
      const detail = await itemImages(product, rowId).catch(() => []);
      const imageId = detail[0]?.id;
      const mine = perImage.get(title);
      served.set(title, {
        bytes: await servedBytes(media.url),
        status: media.status,
        appStatus: detail[0]?.status as string | undefined, // the image row's documented status text
        engine: mine?.engine ?? lines.find((l) => (l as { imageId?: unknown }).imageId === imageId),
        cpuMsPerMp: mine?.cpuMsPerMp,
        cpuLessFixedMsPerMp: mine?.cpuLessFixedMsPerMp,
        webhookMs: mine?.webhookMs,
        peakRiseMb: mine?.peakRiseMb,
      });
    }
  } finally {
    await stopProduct(product.child);
    if (args.log) writeFileSync(args.log, product.log());
    cleanUp();
  }

  // Scored after the product stopped: butteraugli and the native encode do not share the CPUs with it.
  console.log(
    `\n${'image'.padEnd(22)} ${'MP'.padStart(5)} ${'original'.padStart(9)} ${'product'.padStart(9)} ${'native'.padStart(9)} ${'prod/nat'.padStart(8)} ${'BA prod'.padStart(7)} ${'BA nat'.padStart(7)} ${'ms/MP'.padStart(6)} ${'RSS+'.padStart(5)}  path, store status`,
  );
  const records: StoreRecord[] = [];
  for (const [title, original] of originals) {
    const photo = [...set].find((s) => `${TITLE_PREFIX} ${s.name}` === title)!;
    const out = served.get(title)!;
    const decoded = await checkDecodes(out.bytes);
    const changed = sha256(out.bytes) !== sha256(original);
    const native = await nativeMozjpeg(original, level.quality);
    const nat = await pairScores(original, native, tool);
    const prod = decoded.ok && changed ? await pairScores(original, out.bytes, tool) : null;
    if (args.keep) {
      mkdirSync(args.keep, { recursive: true });
      writeFileSync(join(args.keep, `${photo.name}.product.jpg`), out.bytes);
      writeFileSync(join(args.keep, `${photo.name}.native-q${level.quality}.jpg`), native);
    }
    const rec: StoreRecord = {
      name: photo.name,
      format: photo.format,
      megapixels: photo.megapixels,
      bytesIn: original.length,
      bytesOut: out.bytes.length,
      saved: (original.length - out.bytes.length) / original.length,
      changed,
      decodes: decoded.ok,
      ...(decoded.ok ? {} : { decodeError: decoded.error }),
      status: out.status,
      appStatus: out.appStatus,
      engineSsim: decoded.ok ? (prod ? prod.ssim : 1) : Number.NaN,
      nativeBytes: native.length,
      nativeSaved: (original.length - native.length) / original.length,
      nativeSsim: nat.ssim,
      butteraugli: tool && decoded.ok ? (prod ? prod.butteraugli : { tool, pnorm3: 0, max: 0 }) : null,
      nativeButteraugli: nat.butteraugli,
      engine: out.engine,
      cpuMsPerMp: out.cpuMsPerMp,
      cpuLessFixedMsPerMp: out.cpuLessFixedMsPerMp,
      webhookMs: out.webhookMs,
      peakRiseMb: out.peakRiseMb,
    };
    records.push(rec);
    console.log(
      `${rec.name.padEnd(22)} ${rec.megapixels.toFixed(1).padStart(5)} ${String(rec.bytesIn).padStart(9)} ${String(rec.bytesOut).padStart(9)} ${String(rec.nativeBytes).padStart(9)} ${pct(rec.bytesOut / rec.nativeBytes).padStart(8)} ` +
        `${ba(rec.butteraugli).padStart(7)} ${ba(rec.nativeButteraugli).padStart(7)} ${fixed(rec.cpuMsPerMp ?? Number.NaN, 0).padStart(6)} ${fixed(rec.peakRiseMb ?? Number.NaN, 0).padStart(5)}  ` +
        `${pathOf(rec.engine)}, ${rec.status}${rec.decodes ? '' : ' DOES NOT DECODE'}${rec.changed ? '' : ' unchanged'}${rec.appStatus !== undefined ? `, app: ${rec.appStatus}` : ''}`,
    );
  }

  const summary = summarise(records);
  const mp = records.reduce((n, r) => n + r.megapixels, 0);
  const all = {
    ...summary,
    level: args.level,
    set: args.set,
    half: args.half,
    job: schedule,
    jobWallMs,
    fixedCostMs,
    workerdCpuMsPerMp: (workerd?.cpuMs ?? Number.NaN) / mp,
    workerd,
  };
  console.log(
    `\nbytes against native MozJPEG q${level.quality}: median ${pct(summary.medianBytesRatio)} per image, total ${pct(summary.totalBytesRatio)} (saved: product ${pct(summary.medianSaved)}, native ${pct(summary.medianNativeSaved)} median)` +
      `\nbutteraugli 3-norm median / p90 / worst: product ${fixed(summary.butteraugli.median)} / ${fixed(summary.butteraugli.p90)} / ${fixed(summary.butteraugli.worst)}, native ${fixed(summary.nativeButteraugli.median)} / ${fixed(summary.nativeButteraugli.p90)} / ${fixed(summary.nativeButteraugli.worst)}` +
      `\nCPU ms/MP median / worst: ${fixed(summary.cpu.median, 0)} / ${fixed(summary.cpu.worst, 0)}; less the fixed cost per job (${fixed(fixedCostMs, 0)} ms): ${fixed(summary.cpuLessFixed.median, 0)} / ${fixed(summary.cpuLessFixed.worst, 0)}; the webhooks each job sends (HTTP Worker, measured after the job) median ${fixed(summary.webhookMs.median, 0)} CPU ms; workerd RSS rise over the idle Worker median / worst ${fixed(summary.peakRise.median, 0)} / ${fixed(summary.peakRise.worst, 0)} MB` +
      `\n${summary.unchanged} unchanged, ${summary.notDecoding} not decoding; paths: ${Object.entries(summary.paths)
        .map(([k, v]) => `${k} x${v}`)
        .join(', ')}` +
      `\njob(s) ${schedule?.status} in ${(jobWallMs / 1000).toFixed(0)} s; workerd peak RSS ${fixed(workerd?.peakRssMb ?? Number.NaN, 0)} MB (idle ${fixed(workerd?.idleRssMb ?? Number.NaN, 0)} MB), CPU ${fixed(all.workerdCpuMsPerMp, 0)} ms/MP over all (engine, guard, D1/R2, Shopify calls)` +
      (workerd?.restarted ? '\nworkerd was restarted during the job (wrangler reload): CPU covers only what was sampled' : ''),
  );
  if (args.markdown) console.log(`\n${markdownSummary(summary, level.quality)}\n\n${markdownTable(records, level.quality)}`);
  if (args.json) writeFileSync(args.json, JSON.stringify({ summary: all, records }, null, 2));
  if (summary.notDecoding > 0) process.exitCode = 1;
}

/** The figures the README's engine table reports. */
export function summarise(records: StoreRecord[]) {
  const three = (v: number[]) => ({ median: median(v.filter(Number.isFinite)), p90: percentile(v, 0.9), worst: worst(v) });
  const paths: Record<string, number> = {};
  for (const r of records) {
    const k = r.engine
      ? `${r.format}->${r.engine.kind === 'optimised' ? `${r.engine.path ?? '?'}${r.engine.tiles ? '-tiles' : ''}` : r.engine.kind}`
      : `${r.format}->?`;
    paths[k] = (paths[k] ?? 0) + 1;
  }
  const sum = (f: (r: StoreRecord) => number) => records.reduce((n, r) => n + f(r), 0);
  return {
    images: records.length,
    medianBytesRatio: median(records.map((r) => r.bytesOut / r.nativeBytes)),
    totalBytesRatio: sum((r) => r.bytesOut) / sum((r) => r.nativeBytes),
    medianSaved: median(records.map((r) => r.saved)),
    medianNativeSaved: median(records.map((r) => r.nativeSaved)),
    butteraugli: three(records.map((r) => r.butteraugli?.pnorm3 ?? Number.NaN)),
    nativeButteraugli: three(records.map((r) => r.nativeButteraugli?.pnorm3 ?? Number.NaN)),
    cpu: three(records.map((r) => r.cpuMsPerMp ?? Number.NaN)),
    cpuLessFixed: three(records.map((r) => r.cpuLessFixedMsPerMp ?? Number.NaN)),
    webhookMs: three(records.map((r) => r.webhookMs ?? Number.NaN)),
    peakRise: three(records.map((r) => r.peakRiseMb ?? Number.NaN)),
    unchanged: records.filter((r) => !r.changed).length,
    notDecoding: records.filter((r) => !r.decodes).length,
    paths,
  };
}

function markdownSummary(s: ReturnType<typeof summarise>, q: number): string {
  return [
    `| ${s.images} photos | product | native MozJPEG q${q} |`,
    '|---|---|---|',
    `| bytes, median per image / total | **${pct(s.medianBytesRatio)}** / ${pct(s.totalBytesRatio)} of native | 100 % |`,
    `| median saved | ${pct(s.medianSaved)} | ${pct(s.medianNativeSaved)} |`,
    `| butteraugli 3-norm median / p90 / worst | ${fixed(s.butteraugli.median)} / ${fixed(s.butteraugli.p90)} / ${fixed(s.butteraugli.worst)} | ${fixed(s.nativeButteraugli.median)} / ${fixed(s.nativeButteraugli.p90)} / ${fixed(s.nativeButteraugli.worst)} |`,
    `| CPU ms/MP median / worst (workerd, one image per job) | ${fixed(s.cpu.median, 0)} / ${fixed(s.cpu.worst, 0)} | |`,
    `| the same less the fixed cost per job | ${fixed(s.cpuLessFixed.median, 0)} / ${fixed(s.cpuLessFixed.worst, 0)} | |`,
    `| workerd RSS rise median / worst | ${fixed(s.peakRise.median, 0)} / ${fixed(s.peakRise.worst, 0)} MB | |`,
    `| paths | ${Object.entries(s.paths)
      .map(([k, v]) => `${k} x${v}`)
      .join(', ')} | |`,
  ].join('\n');
}

function markdownTable(records: StoreRecord[], q: number): string {
  const kb = (n: number) => `${Math.round(n / 1000)} KB`;
  const rows = records.map(
    (r) =>
      `| ${r.name} | ${r.format === 'png' ? 'PNG' : 'JPEG'} | ${r.megapixels.toFixed(1)} | ${kb(r.bytesIn)} | ${kb(r.bytesOut)} | ${kb(r.nativeBytes)} | ${pct(r.bytesOut / r.nativeBytes)} | ${ba(r.butteraugli)} / ${ba(r.nativeButteraugli)} | ${fixed(r.cpuMsPerMp ?? Number.NaN, 0)} | ${fixed(r.cpuLessFixedMsPerMp ?? Number.NaN, 0)} | ${fixed(r.peakRiseMb ?? Number.NaN, 0)} MB | ${pathOf(r.engine)} |`,
  );
  return [
    `| image | original | MP | original bytes | product | native q${q} | product / native | butteraugli product / native | CPU ms/MP | less fixed cost | RSS rise | path |`,
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

main()
  .catch((e) => {
    console.error(`bench:store failed: ${(e as Error).message}`);
    process.exitCode = 1;
  })
  .finally(() => setTimeout(() => process.exit(), 500).unref());
