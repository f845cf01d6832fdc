import type { ComponentProps } from 'react';
import { AutoOptimiseCard } from './auto-optimise-card';
import { HistorySection } from './history-section';
import { ProgressPanel } from './progress-panel';

type Props = {
  auto: ComponentProps<typeof AutoOptimiseCard>;
  progress: ComponentProps<typeof ProgressPanel>['progress'];
  history: ComponentProps<typeof HistorySection>;
};

/**
 * What /image_optimisation shows below its statistics, one transition after its first render: automatic
 * optimisation, the progress of a job, the history table. A chunk of its own (hooks/lazy-part.ts, issue 26):
 * the table's code (Polaris' IndexTable, search, paging) is not needed for the first paint.
 */
export function BelowStats({ auto, progress, history }: Props) {
  return (
    <>
      <AutoOptimiseCard {...auto} />
      <ProgressPanel progress={progress} />
      <HistorySection {...history} />
    </>
  );
}
