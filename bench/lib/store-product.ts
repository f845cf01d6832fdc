// The product as `npm start` runs it, for bench:store: scripts/start.mjs on free ports with its own
// WRANGLER_STATE (so another running `npm start` keeps its database), the admin URL and token read from
// what it prints, and the workerd process it started found in /proc for its memory figures.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
export { freePort } from '../../scripts/lib/free-port';

export type RunningProduct = {
  child: ChildProcess;
  base: string;
  token: string;
  emulator: string;
  shop: string;
  log: () => string;
};

/**
 * A clean copy of the product at `ref` (git archive) with this checkout's node_modules linked in: in a
 * working tree others are editing, wrangler dev would bundle (and reload on) their half-made changes.
 */
export function exportCommit(ref: string): { dir: string; commit: string } {
  const commit = execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], { encoding: 'utf8' }).trim();
  const dir = mkdtempSync(join(tmpdir(), 'bench-store-tree-'));
  execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C "${dir}"`]);
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'));
  return { dir, commit };
}

/** Starts scripts/start.mjs (in `cwd`) in its own process group; resolves once it printed the admin URL. */
export function startProduct(opts: {
  port: number;
  emulatorPort: number;
  state: string;
  cwd?: string;
  timeoutMs?: number;
}): Promise<RunningProduct> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, PORT: String(opts.port), EMULATOR_PORT: String(opts.emulatorPort), WRANGLER_STATE: opts.state };
    const child = spawn(process.execPath, ['scripts/start.mjs'], {
      cwd: opts.cwd,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => {
      void stopProduct(child);
      reject(
        new Error(`npm start did not print the admin URL within ${(opts.timeoutMs ?? 300_000) / 1000} s:\n${out.slice(-2000)}`),
      );
    }, opts.timeoutMs ?? 300_000);
    const onData = (chunk: Buffer) => {
      // Keep the tail only: wrangler logs every request and a long run would grow this without bound.
      out = (out + chunk.toString()).slice(-200_000);
      const admin = /Admin:\s+(http:\/\/\S+)\/main\?authToken=(\S+)/.exec(out);
      const emu = /against the store emulator \((http:\/\/\S+), shop (\S+)\)/.exec(out);
      if (admin && emu) {
        clearTimeout(timer);
        resolve({ child, base: admin[1]!, token: admin[2]!, emulator: emu[1]!, shop: emu[2]!, log: () => out });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited (${code}):\n${out.slice(-2000)}`));
    });
  });
}

/** SIGTERM to start.mjs: it stops the emulator's and wrangler's process groups itself. */
export function stopProduct(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const done = setTimeout(resolve, 10_000);
    child.once('exit', () => {
      clearTimeout(done);
      resolve();
    });
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      clearTimeout(done);
      resolve();
    }
  });
}

/** Every process descended from `root` (start.mjs puts its children in their own groups, so walk ppids). */
function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // "pid (comm) state ppid ...": comm may hold spaces, so read after the last ')'.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      /* exited meanwhile */
    }
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length) {
    const p = queue.shift()!;
    for (const [pid, pp] of parent) {
      if (pp !== p) continue;
      out.push(pid);
      queue.push(pid);
    }
  }
  return out;
}

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** The workerd processes npm start runs (wrangler dev's runtime), each with its current RSS and peak. */
export function workerdMemory(root: number): { pid: number; rssMb: number; hwmMb: number }[] {
  return descendants(root)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'workerd';
      } catch {
        return false;
      }
    })
    .map((pid) => ({ pid, rssMb: statusKb(pid, 'VmRSS') / 1024, hwmMb: statusKb(pid, 'VmHWM') / 1024 }));
}

/** CPU time (user + system) of one process so far, in ms (clock ticks of 10 ms); NaN once it exited. */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10; // utime, stime (fields 14 and 15 of proc(5))
  } catch {
    return Number.NaN;
  }
}

export type WorkerdFigures = {
  peakRssMb: number;
  hwmMb: number;
  idleRssMb: number;
  cpuMs: number;
  samples: number;
  restarted: boolean;
};

/**
 * Samples the workerd processes every second while a job runs: the highest RSS seen (VmHWM also counts
 * start-up), their CPU time since the start (per process, so a workerd that wrangler restarts mid-job is
 * counted up to its last sample and flagged), and the RSS before the job.
 */
export function sampleWorkerd(root: number): { stop: () => WorkerdFigures } {
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  const initial = workerdMemory(root);
  const idleRssMb = Math.max(0, ...initial.map((w) => w.rssMb).filter(Number.isFinite));
  let peak = idleRssMb;
  let samples = 0;
  const tick = () => {
    for (const w of workerdMemory(root)) {
      const cpu = cpuMs(w.pid);
      // A process seen at the start counts from there; one born during the job from zero.
      if (!first.has(w.pid)) first.set(w.pid, samples === 0 ? cpu : 0);
      if (Number.isFinite(cpu)) last.set(w.pid, cpu);
      if (Number.isFinite(w.rssMb)) peak = Math.max(peak, w.rssMb);
    }
    samples++;
  };
  tick();
  const timer = setInterval(tick, 1000);
  return {
    stop: () => {
      clearInterval(timer);
      tick();
      const now = workerdMemory(root);
      const hwmMb = Math.max(0, ...now.map((w) => w.hwmMb).filter(Number.isFinite));
      let cpu = 0;
      for (const [pid, base] of first) cpu += (last.get(pid) ?? base) - base;
      const restarted = now.length !== first.size || now.some((w) => !first.has(w.pid));
      return { peakRssMb: peak, hwmMb, idleRssMb, cpuMs: cpu, samples, restarted };
    },
  };
}
