import { BAND_COLOURS, scoreBand, type Device } from '../lib/score-bands';

/** Half-circle gauge: the arc fills to the score in the colour of its band. */
export function ScoreGauge({ score, device, label }: { score: number; device: Device; label: string }) {
  const clamped = Math.max(0, Math.min(100, Math.round(score)));
  const colour = BAND_COLOURS[scoreBand(clamped, device)];
  // Arc length of a half circle of radius 80: pi * 80.
  const length = Math.PI * 80;
  return (
    <svg viewBox="0 0 200 120" width="220" height="132" role="img" aria-label={label} data-band={scoreBand(clamped, device)}>
      <path d="M20 100 A80 80 0 0 1 180 100" fill="none" stroke="#e3e3e3" strokeWidth="16" strokeLinecap="round" />
      <path
        d="M20 100 A80 80 0 0 1 180 100"
        fill="none"
        stroke={colour}
        strokeWidth="16"
        strokeLinecap="round"
        strokeDasharray={`${(clamped / 100) * length} ${length}`}
      />
      <text x="100" y="96" textAnchor="middle" fontSize="40" fontWeight="700" fill={colour}>
        {clamped}
      </text>
    </svg>
  );
}
