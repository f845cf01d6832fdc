// Discount countdown: hh:mm:ss, ticking each second.

/** Milliseconds left until `expiresAt` (seconds or milliseconds since epoch, or a date string). */
export function msUntil(expiresAt: number | string, now: number): number {
  let at: number;
  if (typeof expiresAt === 'number') at = expiresAt < 1e12 ? expiresAt * 1000 : expiresAt;
  else at = /^\d+$/.test(expiresAt) ? msUntil(Number(expiresAt), 0) : Date.parse(expiresAt.replace(' ', 'T'));
  return Number.isFinite(at) ? Math.max(0, at - now) : 0;
}

/** 3723000 -> "01:02:03"; hours keep counting past 24 ("49:00:00"). */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(total / 3600))}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
}
