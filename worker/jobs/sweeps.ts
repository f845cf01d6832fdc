// Scheduled sweeps of rows that only matter for a while (issue 17): expired OAuth states (half-hourly,
// through the expires_at index), expired admin tokens, past allowance windows and ended jobs (daily).
import { deleteExpiredAdminTokens } from '../db/admin-tokens';
import { deleteAllowancesBefore } from '../db/shop-allowances';
import { deleteEndedJobsBefore } from '../db/jobs';
import { ENDED_JOBS_KEPT_MS } from '../lib/limits';
import { createDb } from '../db/client';
import { deleteExpiredOAuthStates } from '../db/oauth-states';
import { createLogger } from '../lib/log';

const DAY_MS = 24 * 60 * 60 * 1000;

export async function sweepOAuthStatesTask(controller: ScheduledController, env: Env): Promise<void> {
  const deleted = await deleteExpiredOAuthStates(createDb(env.DB), controller.scheduledTime);
  createLogger({ task: 'oauth_state_sweep' }).info('oauth_states_swept', { deleted });
}

export async function sweepExpiredCredentialsTask(controller: ScheduledController, env: Env): Promise<void> {
  const db = createDb(env.DB);
  const tokens = await deleteExpiredAdminTokens(db, controller.scheduledTime);
  // Daily windows: yesterday's still answers "used today" near midnight in other time zones' eyes; older go.
  const allowances = await deleteAllowancesBefore(db, controller.scheduledTime - 2 * DAY_MS);
  // Ended jobs, a batch at a time until none is older than ENDED_JOBS_KEPT_MS (at most 20 batches a day).
  let jobsSwept = 0;
  for (let round = 0; round < 20; round++) {
    const n = await deleteEndedJobsBefore(db, controller.scheduledTime - ENDED_JOBS_KEPT_MS);
    jobsSwept += n;
    if (n === 0) break;
  }
  createLogger({ task: 'credential_sweep' }).info('expired_rows_swept', { tokens, allowances, jobs: jobsSwept });
}
