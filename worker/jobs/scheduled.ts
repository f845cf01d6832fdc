import { usageChargesTask } from '../billing/overage';
import { quotaResetTask } from '../billing/quota-reset';
import { createLogger } from '../lib/log';
import { automaticSweepTask, expirySweepTask } from '../optimise/handlers';
import { refreshLapsingGrantsTask } from '../shopify/maintenance';
import { pruneWebhookIdsTask } from '../webhooks/maintenance';
import { deadLetterTask, pruneDeadLettersTask } from './dead-letters';
import { sweepExpiredCredentialsTask, sweepOAuthStatesTask } from './sweeps';

/** Cron expressions of wrangler.toml [triggers], named once here. */
export const CRON = {
  quotaReset: '15 0 * * *',
  expirySweep: '30 2 * * *',
  halfHourly: '*/30 * * * *',
  deadLetters: '*/5 * * * *',
} as const;

export type ScheduledTask = (controller: ScheduledController, env: Env, ctx: ExecutionContext) => Promise<void>;

/** Tasks by cron expression; several tasks may share one trigger. */
export const scheduledTasks: Record<string, ScheduledTask[]> = {
  [CRON.quotaReset]: [quotaResetTask],
  [CRON.expirySweep]: [expirySweepTask, pruneWebhookIdsTask, sweepExpiredCredentialsTask, pruneDeadLettersTask],
  [CRON.halfHourly]: [usageChargesTask, automaticSweepTask, refreshLapsingGrantsTask, sweepOAuthStatesTask],
  [CRON.deadLetters]: [deadLetterTask],
};

export async function dispatchScheduled(controller: ScheduledController, env: Env, ctx: ExecutionContext): Promise<void> {
  const log = createLogger({ cron: controller.cron });
  const tasks = scheduledTasks[controller.cron] ?? [];
  // One failing task must not stop the others; each failure is logged with its cause.
  const results = await Promise.allSettled(tasks.map((task) => task(controller, env, ctx)));
  results.forEach((r, i) => {
    if (r.status === 'rejected') log.error('scheduled_task_failed', { task: tasks[i]?.name, error: r.reason });
  });
  log.info('scheduled_done', { tasks: tasks.length });
}
