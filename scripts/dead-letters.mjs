// `npm run dead-letters -- list|replay ...`: the dead_letters rows (messages that exhausted their queue's
// retries, recorded by worker/jobs/dead-letters.ts) and their replay. A replay marks rows `replay`; the
// Worker's 5-minute cron re-sends each to its own queue (a queue cannot be written from outside the
// Worker without an API token). Uses wrangler's login, like every wrangler command.
//
//   npm run dead-letters -- list   --env production [--queue shopify-webhooks] [--status open] [--limit 50]
//   npm run dead-letters -- replay --env production (--id 12 [--id 13] | --queue catalogue-sync) [--dry-run]
//   ... --local [--persist-to .wrangler/state]     instead of --env: the local database of `npm start`
import { parseArgs, requireEnv, run, show } from './lib/cli.mjs';

const USAGE = `npm run dead-letters -- list|replay (--env staging|production | --local) [--queue Q] [--id N ...] [--status S] [--limit N] [--dry-run]`;
const QUEUES = ['shopify-webhooks', 'catalogue-sync', 'pagespeed-check'];
const STATUSES = ['open', 'replay', 'replayed', 'done'];

const args = parseArgs(process.argv.slice(2));
const [command] = args._;
if (!['list', 'replay'].includes(command)) {
  console.error(USAGE);
  process.exit(2);
}
const target = args.local
  ? ['--local', ...(args['persist-to'] ? ['--persist-to', String(args['persist-to'])] : [])]
  : ['--remote', '--env', requireEnv(args, USAGE)];

const queue = args.queue === undefined ? null : String(args.queue);
if (queue !== null && !QUEUES.includes(queue)) {
  console.error(
    `--queue must be one of ${QUEUES.join(', ')} (image-optimise dead letters are failed images: re-optimise them in the admin)`,
  );
  process.exit(2);
}
const ids = [].concat(args.id ?? []).map(Number);
if (ids.some((n) => !Number.isSafeInteger(n) || n <= 0)) {
  console.error('--id takes a row id (a positive integer)');
  process.exit(2);
}
const status = String(args.status ?? 'open');
if (!STATUSES.includes(status)) {
  console.error(`--status must be one of ${STATUSES.join(', ')}`);
  process.exit(2);
}
const limit = Math.min(Math.max(Number(args.limit ?? 50) || 50, 1), 1000);

/** Runs one SQL statement on D1 through wrangler; the rows it returns. */
function sql(statement) {
  const cmd = ['wrangler', 'd1', 'execute', 'DB', ...target, '--json', '--command', statement];
  if (args['dry-run']) {
    console.log(`would run: ${show('npx', cmd)}`);
    return [];
  }
  const r = run('npx', cmd, { capture: true });
  const parsed = JSON.parse(r.stdout);
  return parsed[0]?.results ?? [];
}

const where = [...(queue ? [`queue = '${queue}'`] : []), ...(ids.length ? [`id IN (${ids.join(', ')})`] : [])];

if (command === 'list') {
  const rows = sql(
    `SELECT id, queue, kind, shop, status, must_complete, retries, datetime(created_at / 1000, 'unixepoch') AS created, datetime(next_retry_at / 1000, 'unixepoch') AS next_retry, last_error FROM dead_letters WHERE ${[`status = '${status}'`, ...where].join(' AND ')} ORDER BY id DESC LIMIT ${limit}`,
  );
  if (rows.length) console.table(rows);
  else if (!args['dry-run']) console.log(`No ${status} dead letters${queue ? ` from ${queue}` : ''}.`);
} else {
  if (!where.length) {
    console.error('replay needs --id N or --queue Q (replaying every queue at once is never what you meant)');
    process.exit(2);
  }
  const rows = sql(
    `UPDATE dead_letters SET status = 'replay', updated_at = ${Date.now()} WHERE status = 'open' AND ${where.join(' AND ')} RETURNING id, queue, kind, shop`,
  );
  if (rows.length) console.table(rows);
  if (!args['dry-run'])
    console.log(
      `${rows.length} dead letter(s) marked for replay: the Worker's 5-minute cron sends each back to its queue (status 'replayed'; \`list --status replayed\`).`,
    );
}
