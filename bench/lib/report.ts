// Aggregation and the printed table of the image benchmark.
export type BenchRecord = {
  file: string;
  kind: string;
  category: string;
  level: string;
  bytesIn: number;
  bytesOut: number;
  kept: boolean;
  result: string;
  outFormat: string;
  score: number | null;
  metric: string;
  ms: number;
  megapixels: number;
  /** CPU time of the workerd processes for this request (wall-clock ms depends on the machine's load). */
  cpuMs?: number;
  /** --warm: CPU of the same request sent again to the same isolate (codecs compiled and tiered up). */
  cpuWarmMs?: number;
  peakBytes: number | null;
  qualityUsed: number | null;
  reason?: string;
  /** butteraugli max distance (score is its 3-norm); the engine's own block SSIM of the output. */
  scoreMax?: number;
  engineSsim?: number;
  wasmHeapBytes?: number;
  /** Path the engine took ('wasm', 'wasm-rows', or the result kind when nothing was made). */
  path?: string;
  /** Bytes native MozJPEG q75 (sharp) makes of the same original (large set, JPEG inputs). */
  nativeBytes?: number;
};

export const median = (xs: number[]) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)} %` : '-');
const num = (x: number, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '-');
const saved = (r: BenchRecord) => (r.bytesIn - r.bytesOut) / r.bytesIn;

export function table(records: BenchRecord[], groupBy: 'kind' | 'category', metric: string): string {
  const groups = new Map<string, BenchRecord[]>();
  for (const r of records) {
    const key = `${r.level}\u0000${r[groupBy]}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const head = [
    'level',
    groupBy,
    'n',
    'median saved',
    'total saved',
    'kept',
    'raised q',
    `median ${metric}`,
    `worst ${metric}`,
    'CPU ms/MP',
    'peak MB',
  ];
  const rows = [...groups.entries()].map(([key, rs]) => {
    const [level, group] = key.split('\u0000') as [string, string];
    const scores = rs.map((r) => r.score ?? Number.NaN);
    const worst =
      metric === 'butteraugli' ? Math.max(...scores.filter(Number.isFinite)) : Math.min(...scores.filter(Number.isFinite));
    const tin = rs.reduce((n, r) => n + r.bytesIn, 0);
    const tout = rs.reduce((n, r) => n + r.bytesOut, 0);
    const levelQ = { low: 90, medium: 75, high: 70 }[level.replace('-noguard', '')] ?? null;
    const raised = rs.filter((r) => levelQ !== null && r.qualityUsed !== null && r.qualityUsed > levelQ).length;
    const peaks = rs.map((r) => r.peakBytes ?? Number.NaN).filter(Number.isFinite);
    return [
      level,
      group,
      String(rs.length),
      pct(median(rs.map(saved))),
      pct((tin - tout) / tin),
      String(rs.filter((r) => r.kept).length),
      String(raised),
      num(median(scores), 3),
      num(worst, 3),
      num(median(rs.map((r) => (r.cpuMs ?? r.ms) / r.megapixels)), 0),
      peaks.length ? num(Math.max(...peaks) / 2 ** 20, 0) : '-',
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** Prints rows under a head as aligned columns (two spaces apart), with a rule under the head. */
export function printColumns(head: string[], rows: string[][]): void {
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(width[i]!)).join('  ');
  console.log(line(head));
  console.log(line(width.map((w) => '-'.repeat(w))));
  for (const r of rows) console.log(line(r));
}
