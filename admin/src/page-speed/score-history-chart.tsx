import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatNumber, intlTag } from '../lib/intl';
import type { ScorePoint } from '../../../shared/api/page-speed';
import { HISTORY_ASPECT, HISTORY_SERIES, HISTORY_VIEWBOX } from './score-history-shape';
import './strings';

// The dashboard's score history (issue 23 point 8): the last checks per device as a small SVG, loaded on
// use (no chart library: the dashboard's first screen carries none of this code). The drawing scales
// with its width at a fixed aspect ratio, the one its skeleton keeps (score-history-shape.ts), so nothing moves
// when it arrives. Screen readers get the numbers: the SVG's title and description list every check.

const W = HISTORY_VIEWBOX.width;
const H = HISTORY_VIEWBOX.height;
const PAD = { left: 26, right: 8, top: 8, bottom: 22 };

const xOf = (i: number, n: number) =>
  PAD.left + (n <= 1 ? (W - PAD.left - PAD.right) / 2 : (i * (W - PAD.left - PAD.right)) / (n - 1));
const yOf = (score: number) => PAD.top + ((100 - Math.max(0, Math.min(100, score))) * (H - PAD.top - PAD.bottom)) / 100;

export function ScoreHistoryChart({ points, language }: { points: ScorePoint[]; language: string }) {
  const { t } = useTranslation();
  const id = useId();
  const day = (ms: number) => new Date(ms).toLocaleDateString(intlTag(language), { month: 'short', day: 'numeric' });
  const description = points
    .map((p) =>
      t('main.history.point', {
        when: formatDateTime(p.checked_at, language),
        desktop: formatNumber(p.pc, language),
        mobile: formatNumber(p.mb, language),
      }),
    )
    .join('; ');
  const first = points[0];
  const last = points.at(-1);
  return (
    <svg
      viewBox={`0 0 ${W} ${H}`}
      width="100%"
      style={{ display: 'block', aspectRatio: HISTORY_ASPECT }}
      role="img"
      aria-labelledby={`${id}-t`}
      aria-describedby={`${id}-d`}
      data-points={points.length}
    >
      <title id={`${id}-t`}>{t('main.history.title')}</title>
      <desc id={`${id}-d`}>{description}</desc>
      {[0, 50, 100].map((v) => (
        <g key={v} aria-hidden="true">
          <line x1={PAD.left} x2={W - PAD.right} y1={yOf(v)} y2={yOf(v)} stroke="#e3e3e3" strokeWidth="1" />
          <text x={PAD.left - 5} y={yOf(v) + 3.5} textAnchor="end" fontSize="10" fill="#616161">
            {formatNumber(v, language)}
          </text>
        </g>
      ))}
      {HISTORY_SERIES.map((s) => (
        <g key={s.key} aria-hidden="true" data-series={s.key}>
          {points.length > 1 && (
            <polyline
              fill="none"
              stroke={s.colour}
              strokeWidth="2"
              strokeDasharray={s.dash}
              strokeLinejoin="round"
              points={points.map((p, i) => `${xOf(i, points.length)},${yOf(p[s.key])}`).join(' ')}
            />
          )}
          {points.map((p, i) => (
            <circle key={p.checked_at} cx={xOf(i, points.length)} cy={yOf(p[s.key])} r="2.5" fill={s.colour} />
          ))}
        </g>
      ))}
      {first && last && (
        <g aria-hidden="true" fontSize="10" fill="#616161">
          <text x={points.length > 1 ? PAD.left : xOf(0, 1)} y={H - 6} textAnchor={points.length > 1 ? 'start' : 'middle'}>
            {day(first.checked_at)}
          </text>
          {points.length > 1 && (
            <text x={W - PAD.right} y={H - 6} textAnchor="end">
              {day(last.checked_at)}
            </text>
          )}
        </g>
      )}
    </svg>
  );
}
