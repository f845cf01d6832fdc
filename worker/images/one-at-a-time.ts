// One engine run at a time per isolate. The memory budget (ISOLATE_BYTES in budget.ts) is sized for ONE
// image, but an isolate serves several at once: the optimise queue runs a batch's messages side by side
// (up to four 9-16 MP photos grew workerd by ~370 MB through `npm start`), and Workers may route
// concurrent invocations to the same isolate. Engine work is CPU-bound on the isolate's single thread, so
// queueing it costs no throughput; the Shopify and R2 I/O around it still overlaps.
let tail: Promise<unknown> = Promise.resolve();

/** Runs `task` after every task queued before it has settled (a failure does not block the next). */
export function oneAtATime<T>(task: () => Promise<T>): Promise<T> {
  const run = tail.then(task);
  tail = run.catch(() => undefined);
  return run;
}
