#!/usr/bin/env node
// npm run build:codecs [-- --check]   (second half; build.mjs makes mozjpeg.wasm)
// Builds worker/images/codecs/libwebp.wasm from pinned sources: libwebp 1.2.4 (Debian bookworm's
// `apt-get source libwebp=1.2.4-0.2+deb12u1`, its upstream tarball's sha256 is checked) + webp-glue.c,
// with Debian's emscripten 3.1.6 as a standalone wasm (no JS glue, imports: env.js_emit only). Plain C
// (no SIMD files, no threads). Writes the wasm and its sha256 to libwebp.wasm.sha256; with --check it
// rebuilds in a temporary folder and fails when the committed wasm or hash differs (the test
// tests/worker/images/webp-large.test.ts checks the hash without a compiler). Deterministic: fixed
// flags and file order, no debug info, the source folder mapped away, SOURCE_DATE_EPOCH pinned.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { emccEnv, fail, recordOrCheck, sha256 } from './record.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const check = process.argv.includes('--check');

const DEB_VERSION = '1.2.4-0.2+deb12u1';
const TARBALL_NAME = 'libwebp_1.2.4.orig.tar.gz';
const TARBALL_SHA256 = '7bf5a8a28cc69bcfa8cb214f2c3095703c6b73ac5fba4d5480c205331d9494df';
const EMCC_VERSION = '3.1.6';

const FLAGS = [
  '-O3',
  '-sSTANDALONE_WASM',
  '--no-entry',
  '-sALLOW_MEMORY_GROWTH=1',
  '-sINITIAL_MEMORY=1MB',
  '-sTOTAL_STACK=256KB',
  '-sERROR_ON_UNDEFINED_SYMBOLS=0',
  '-sFILESYSTEM=0',
  '-g0',
  '-DNDEBUG',
];
// Platform-specific DSP variants are left out (their plain-C counterparts are always built).
const PLATFORM = /_(mips32|mips_dsp_r2|msa|neon|sse2|sse41)\.c$/;
const DIRS = ['sharpyuv', 'src/dec', 'src/dsp', 'src/enc', 'src/utils'];

const env = emccEnv('1665100800', EMCC_VERSION);

const work = mkdtempSync(join(tmpdir(), 'libwebp-wasm-'));
try {
  // The tarball: /tmp's copy when there is one (apt-get source drops it there), else fetched with apt.
  let tarball = join(tmpdir(), TARBALL_NAME);
  if (!existsSync(tarball)) {
    try {
      execFileSync('apt-get', ['source', '--download-only', `libwebp=${DEB_VERSION}`], {
        cwd: work,
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
    } catch (e) {
      fail(`apt-get source --download-only libwebp=${DEB_VERSION} failed (deb-src needed): ${e.stderr ?? e}`);
    }
    tarball = join(work, TARBALL_NAME);
  }
  if (sha256(readFileSync(tarball)) !== TARBALL_SHA256) fail(`${tarball} is not the pinned libwebp 1.2.4 source`);
  execFileSync('tar', ['xzf', tarball, '-C', work], { env });
  const src = join(work, 'libwebp-1.2.4');
  copyFileSync(join(here, 'webp-glue.c'), join(src, 'webp-glue.c'));
  const sources = DIRS.flatMap((d) =>
    readdirSync(join(src, d))
      .filter((f) => f.endsWith('.c') && !PLATFORM.test(f))
      .sort()
      .map((f) => `${d}/${f}`),
  );
  const out = join(work, 'libwebp.wasm');
  execFileSync('emcc', [...FLAGS, `-ffile-prefix-map=${src}=.`, '-I.', ...sources, 'webp-glue.c', '-o', out], {
    cwd: src,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const wasm = readFileSync(out);
  recordOrCheck(here, 'libwebp.wasm', wasm, check);
} finally {
  rmSync(work, { recursive: true, force: true });
}
