import { app } from './app';
import { dispatchQueue } from './jobs/queue';
import { dispatchScheduled } from './jobs/scheduled';

export default {
  fetch: app.fetch,
  queue: dispatchQueue,
  scheduled: dispatchScheduled,
} satisfies ExportedHandler<Env>;
