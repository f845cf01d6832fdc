// The image consumer Worker (wrangler.images.toml): consumes `image-optimise` with a CPU limit that fits
// the largest image the engine takes (`[limits] cpu_ms`, tests/config/limits.test.ts), while the HTTP
// Worker (wrangler.toml) keeps Cloudflare's protective default. Same code, same handler as a single Worker
// would run (worker/optimise/handlers.ts); nothing else is exported, so it serves no requests.
import { handleOptimiseBatch } from '../optimise/handlers';
import { dispatchQueueTo } from './queue';

export const imageQueueHandlers = { 'image-optimise': handleOptimiseBatch };

export default {
  queue: (batch, env, ctx) => dispatchQueueTo(imageQueueHandlers, batch, env, ctx),
} satisfies ExportedHandler<Env>;
