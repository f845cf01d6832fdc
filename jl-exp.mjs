import sharp from 'sharp';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
const wasm = new WebAssembly.Module(readFileSync('/tmp/jpegli/jpegli.wasm'));
let chunks = [];
let ex;
const inst = new WebAssembly.Instance(wasm, {
  env: { js_emit: (s, p, n) => chunks.push(new Uint8Array(ex.memory.buffer).slice(p, p + n)), js_error: (m) => { throw new Error('jpegli error'); }, emscripten_notify_memory_growth() {} },
  wasi_snapshot_preview1: { proc_exit() {}, fd_close() {}, fd_write() { return 0; }, fd_seek() {} },
});
ex = inst.exports; ex._initialize();
export function jpegli(rgb, w, h, { quality = 0, distance = 1, flags = 1 }) {
  chunks = [];
  const e = ex.jl_enc_open(1, w, h, quality, Math.round(distance * 1000), 0, 16, flags);
  const rowsPtr = ex.jl_enc_rows(e);
  for (let y = 0; y < h; y += 16) {
    const n = Math.min(16, h - y);
    new Uint8Array(ex.memory.buffer, rowsPtr, n * w * 3).set(rgb.subarray(y * w * 3, (y + n) * w * 3));
    ex.jl_enc_write(e, n);
  }
  ex.jl_enc_finish(e); ex.jl_enc_close(e);
  return Buffer.concat(chunks);
}
const dir = mkdtempSync('/tmp/jl-');
export function ba(origPath, bytes) {
  const p = `${dir}/b.jpg`; writeFileSync(p, bytes);
  const out = execFileSync('butteraugli_main', [origPath, p], { encoding: 'utf8' });
  return Number(out.match(/3-norm:\s*([\d.]+)/)[1]);
}
const files = process.argv.slice(2);
const configs = JSON.parse(process.env.CONFIGS ?? '[{"quality":75,"flags":1}]');
for (const f of files) {
  const { data, info } = await sharp(f).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const png = `${dir}/o.png`; await sharp(data, { raw: info }).png({ compressionLevel: 1 }).toFile(png);
  const moz = await sharp(data, { raw: info }).jpeg({ quality: 75, mozjpeg: true }).toBuffer();
  const line = [f.split('/').pop().slice(0, 28).padEnd(28), `moz75 ${moz.length} ${ba(png, moz).toFixed(3)}`];
  for (const c of configs) {
    const t = performance.now();
    const j = jpegli(data, info.width, info.height, c);
    const ms = performance.now() - t;
    line.push(`${JSON.stringify(c)} ${(j.length / moz.length * 100).toFixed(1)}% ${ba(png, j).toFixed(3)} ${Math.round(ms / (info.width * info.height / 1e6))}ms/MP`);
  }
  console.log(line.join(' | '));
}
// same-look search: jpegli distance whose butteraugli matches moz q75's
if (process.env.MATCH) {
  for (const f of files) {
    const { data, info } = await sharp(f).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const png = `${dir}/o.png`; await sharp(data, { raw: info }).png({ compressionLevel: 1 }).toFile(png);
    const moz = await sharp(data, { raw: info }).jpeg({ quality: 75, mozjpeg: true }).toBuffer();
    const target = ba(png, moz);
    const flags = Number(process.env.MATCH);
    let lo = 0.5, hi = 4, best = null;
    for (let i = 0; i < 6; i++) {
      const d = (lo + hi) / 2;
      const j = jpegli(data, info.width, info.height, { distance: d, flags });
      const s = ba(png, j);
      if (s <= target) { best = { d, bytes: j.length, s }; lo = d; } else hi = d;
    }
    console.log(`MATCH ${f.split('/').pop().slice(0, 28).padEnd(28)} moz ${moz.length} ${target.toFixed(3)} -> jpegli d=${best?.d.toFixed(2)} ${best ? (best.bytes / moz.length * 100).toFixed(1) : '-'}% ${best?.s.toFixed(3)}`);
  }
}
