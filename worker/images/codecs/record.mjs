// Shared by the codec builds: the sha256 of a built wasm is recorded beside it, and `--check` proves the
// committed binary is the one the pinned sources and flags produce (so CI needs no compiler).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const sha256 = (buf) => createHash('sha256').update(buf).digest('hex');

export function fail(msg) {
  console.error(`build:codecs: ${msg}`);
  process.exit(1);
}

/** Writes `<name>` and `<name>.sha256` into `dir`, or with `check` compares the rebuilt bytes with both. */
export function recordOrCheck(dir, name, wasm, check) {
  const hash = sha256(wasm);
  const wasmPath = join(dir, name);
  const hashPath = join(dir, `${name}.sha256`);
  if (check) {
    const recorded = existsSync(hashPath) ? readFileSync(hashPath, 'utf8').trim() : '';
    const committed = existsSync(wasmPath) ? sha256(readFileSync(wasmPath)) : '';
    if (hash !== recorded || hash !== committed)
      fail(`${name}: rebuilt ${hash}, recorded ${recorded || '-'}, committed wasm ${committed || '-'}`);
    console.log(`build:codecs --check: ${name} ${hash} matches the recorded hash`);
  } else {
    writeFileSync(wasmPath, wasm);
    writeFileSync(hashPath, `${hash}\n`);
    console.log(`build:codecs: ${name} ${wasm.length} bytes, sha256 ${hash}`);
  }
}

/** The pinned build environment (fixed epoch, locale, zone) and a check that Debian's emcc is there. */
export function emccEnv(sourceDateEpoch, emccVersion) {
  const env = { ...process.env, NODE_PATH: '/usr/share/nodejs', SOURCE_DATE_EPOCH: sourceDateEpoch, LC_ALL: 'C', TZ: 'UTC' };
  let version = '';
  try {
    version = execFileSync('emcc', ['--version'], { env, encoding: 'utf8' });
  } catch {
    fail('emcc not found: apt-get install -y emscripten (Debian bookworm, 3.1.6)');
  }
  if (!version.includes(emccVersion)) console.warn(`build:codecs: emcc is not ${emccVersion}; the hash will differ`);
  return env;
}
