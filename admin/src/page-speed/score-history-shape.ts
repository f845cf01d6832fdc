// What the score history's skeleton and legend share with the lazily loaded chart (score-history-chart.tsx),
// kept apart so the dashboard's first chunk does not pull the chart in.
import './first-strings';

/** The chart's viewBox width / height: it scales with its width at this ratio, and so does its skeleton. */
export const HISTORY_VIEWBOX = { width: 320, height: 130 } as const;
export const HISTORY_ASPECT = `${HISTORY_VIEWBOX.width} / ${HISTORY_VIEWBOX.height}`;

/** Desktop solid, mobile dashed: told apart without colour too. */
export const HISTORY_SERIES = [
  { key: 'pc', colour: '#005bd3', dash: undefined, labelKey: 'main.score.desktop' },
  { key: 'mb', colour: '#8a4b00', dash: '5 3', labelKey: 'main.score.mobile' },
] as const;
