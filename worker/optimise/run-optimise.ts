// The optimisation of one image: the steps in
// the order the product's rules require them. The consumer has loaded the job, image and item and taken
// the image's lease; each step is in optimise-steps.ts, persists its progress, and passes over what an
// earlier attempt already finished, so a retry resumes where the last one died.
import {
  changedOutcome,
  fetchOriginal,
  makeResult,
  markOwnOutput,
  openRun,
  outcomeOf,
  planChange,
  record,
  replace,
  reserveSlot,
  stillServedAsRead,
  storeOriginal,
} from './optimise-steps';
import { PictureChangingError } from './errors';
import type { PipelineDeps } from './ports';
import type { Outcome, RunContext } from './run-context';

export { KEEP_MS, type Outcome, type RunContext, type Timings } from './run-context';
export { targetOf } from './on-shopify';

/** How often a run starts over from a picture put up while it worked, before it leaves it to a retry. */
const RESTARTS = 1;

export async function runOptimise(deps: PipelineDeps, ctx: RunContext): Promise<Outcome> {
  const run = await openRun(deps, ctx);
  for (let restarts = 0; ; restarts++) {
    // 1. The original, kept in R2 before anything on Shopify changes (our own output is left alone).
    const fetched = await fetchOriginal(run);
    if (fetched === 'own_output') return markOwnOutput(run);
    if (fetched === 'changed') return changedOutcome();
    const held = await storeOriginal(run, fetched);
    // 2. The engine's result, kept in R2; the quota is checked before the engine runs.
    const made = await makeResult(run, held);
    if (made === 'plan_limit') return { kind: 'plan_limit', imageDone: false };
    // 3. The ledger slot, reserved before Shopify changes: charged once per image.
    const slot = await reserveSlot(run, made);
    if (slot === 'plan_limit') return { kind: 'plan_limit', imageDone: false };
    // 4. Shopify in place, never twice, and never over a picture put up while this run worked: the run
    // starts over from that picture (step 1 moves the row on to it; a re-optimise stops there).
    const planned = await planChange(run, made);
    if (!(await stillServedAsRead(run, made, planned))) {
      if (restarts >= RESTARTS) throw new PictureChangingError();
      deps.log.warn('picture_changed_during_run', { shopId: ctx.shop.id, imageId: run.lease.row.id, jobId: ctx.job.id });
      run.resumeAt = 'start';
      continue;
    }
    const change = await replace(run, made, planned);
    // 5. The row records what happened and gives the lease back.
    await record(run, made, change);
    return outcomeOf(run, made, slot, change);
  }
}
