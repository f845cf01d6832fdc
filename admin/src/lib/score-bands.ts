// Page speed colour bands. Mobile scores run lower than desktop
// ones for the same store, so the mobile bands start lower.
export type Device = 'pc' | 'mb';
export type Band = 'red' | 'amber' | 'green';

const BANDS: Record<Device, { amberFrom: number; greenFrom: number }> = {
  pc: { amberFrom: 50, greenFrom: 75 },
  mb: { amberFrom: 40, greenFrom: 60 },
};

export function scoreBand(score: number, device: Device): Band {
  const b = BANDS[device];
  if (score >= b.greenFrom) return 'green';
  if (score >= b.amberFrom) return 'amber';
  return 'red';
}

/** Legend rows: [from, to] per band, for the device shown. */
export function bandLegend(device: Device): { band: Band; from: number; to: number }[] {
  const b = BANDS[device];
  return [
    { band: 'red', from: 0, to: b.amberFrom - 1 },
    { band: 'amber', from: b.amberFrom, to: b.greenFrom - 1 },
    { band: 'green', from: b.greenFrom, to: 100 },
  ];
}

export const BAND_COLOURS: Record<Band, string> = { red: '#e51c00', amber: '#ffb800', green: '#29845a' };

/** Status 0 (not checked yet) and 2 (check running) keep the dashboard polling. */
export const isScorePending = (status: number | undefined) => status === 0 || status === 2;
