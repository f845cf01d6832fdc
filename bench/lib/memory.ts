// Peak memory of the workerd process running the benchmark Worker, from /proc: the RSS high-water mark
// (VmHWM) is reset before each image by writing 5 to clear_refs, then read after it.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

function parentOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return 0;
  }
}

/** workerd processes descended from this Node process (ours only, never another engineer's). */
export function findWorkerd(): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!pid) continue;
    let comm: string;
    try {
      comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    } catch {
      continue;
    }
    if (comm !== 'workerd') continue;
    for (let p = parentOf(pid), depth = 0; p > 1 && depth < 8; p = parentOf(p), depth++) {
      if (p === process.pid) {
        found.push(pid);
        break;
      }
    }
  }
  return found;
}

const kb = (pid: number, field: string) => {
  const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
  return m ? Number(m[1]) * 1024 : Number.NaN;
};

export const rssBytes = (pid: number) => kb(pid, 'VmRSS');
export const hwmBytes = (pid: number) => kb(pid, 'VmHWM');

export function resetHwm(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** CPU time (user + system) the process has used, in ms: wall-clock time is meaningless on a shared box. */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // utime, stime in USER_HZ (100 on Linux)
  } catch {
    return Number.NaN;
  }
}
