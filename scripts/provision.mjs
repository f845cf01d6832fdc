// `npm run provision -- --env staging|production [--dry-run] [--account-id ID]`: creates, or links when
// they exist, everything an environment runs on, from the configuration files (scripts/lib/environments.mjs):
// the D1 database (its id is written into wrangler.toml and wrangler.images.toml [env.<env>]), the R2
// bucket with its lifecycle rules (config/r2-lifecycle.json: originals/ and uploads/ deleted 30 days
// after they were written), every queue and dead-letter queue, then asks for the secrets that are not set
// yet and puts them on both Workers. Safe to run again: what exists is linked, set secrets are kept
// (`--reset-secret NAME` replaces one). Needs `npx wrangler login` (or CLOUDFLARE_API_TOKEN); --dry-run
// needs nothing and prints what it would run. Secrets may come from the environment (SHOPIFY_API_SECRET=...)
// instead of the prompt; an empty TOKEN_ENCRYPTION_KEY is generated (32 random bytes).
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs, requireEnv, run, show } from './lib/cli.mjs';
import { environmentResources, LIFECYCLE_FILE, WORKER_CONFIGS, withDatabaseId } from './lib/environments.mjs';

const USAGE = 'npm run provision -- --env staging|production [--dry-run] [--account-id ID] [--reset-secret NAME]';
const args = parseArgs(process.argv.slice(2));
const env = requireEnv(args, USAGE);
const dryRun = Boolean(args['dry-run']);
if (args['account-id']) process.env.CLOUDFLARE_ACCOUNT_ID = String(args['account-id']);
const reset = new Set([].concat(args['reset-secret'] ?? []));
const r = environmentResources(env);
const account = process.env.CLOUDFLARE_ACCOUNT_ID ? ` in account ${process.env.CLOUDFLARE_ACCOUNT_ID}` : '';

const wrangler = (...a) => ['wrangler', ...a];
/** A read-only probe: its exit status says whether the resource exists. Dry run: printed, assumed missing. */
function exists(label, cmd) {
  if (dryRun) {
    console.log(`  check   ${show('npx', cmd)}`);
    return false;
  }
  return run('npx', cmd, { capture: true, allowFailure: true }).status === 0;
}
function act(label, cmd, opts = {}) {
  if (dryRun) {
    console.log(
      `  ${label.padEnd(7)} ${show('npx', cmd)}${opts.input === undefined ? '' : `   (asks for the value, or takes $${cmd[3]}; sent on stdin)`}`,
    );
    return { stdout: '' };
  }
  console.log(`  ${label.padEnd(7)} ${show('npx', cmd)}`);
  return run('npx', cmd, { capture: true, ...opts });
}

console.log(
  `${dryRun ? 'Dry run: would provision' : 'Provisioning'} ${env}${account}: Workers ${r.workers.map((w) => w.name).join(', ')}`,
);

// 1. D1: link the database by name, or create it; its id goes into both Workers' [env.<env>].
console.log(`\nD1 database ${r.d1.name}`);
const infoCmd = wrangler('d1', 'info', r.d1.name, '--json');
let databaseId;
if (exists('d1', infoCmd)) {
  databaseId = JSON.parse(run('npx', infoCmd, { capture: true }).stdout).uuid;
  console.log(`  linked  ${databaseId}`);
} else {
  const out = act('create', wrangler('d1', 'create', r.d1.name)).stdout;
  databaseId = dryRun ? '<id printed by d1 create>' : /"?database_id"?\s*[:=]\s*"([0-9a-f-]{36})"/.exec(out)?.[1];
  if (!databaseId) {
    console.error(`✗ no database id in the output of d1 create:\n${out}`);
    process.exit(1);
  }
}
for (const file of WORKER_CONFIGS) {
  if (dryRun) console.log(`  write   database_id = "${databaseId}" into ${file} [env.${env}] (was ${r.d1.id})`);
  else writeFileSync(file, withDatabaseId(readFileSync(file, 'utf8'), env, databaseId));
}

// 2. R2: the bucket and its lifecycle rules (the whole rule set is replaced by the committed one).
console.log(`\nR2 bucket ${r.bucket}`);
if (!exists('r2', wrangler('r2', 'bucket', 'info', r.bucket))) act('create', wrangler('r2', 'bucket', 'create', r.bucket));
const rules = JSON.parse(readFileSync(LIFECYCLE_FILE, 'utf8')).rules;
act('rules', wrangler('r2', 'bucket', 'lifecycle', 'set', r.bucket, '--file', LIFECYCLE_FILE, '--force'));
for (const rule of rules)
  console.log(
    `          ${rule.id}: ${rule.conditions.prefix} deleted ${rule.deleteObjectsTransition.condition.maxAge / 86400} days after written`,
  );

// 3. Queues and dead-letter queues (consumers and DLQ links are set by `wrangler deploy` from the configs).
console.log(`\nQueues (${r.queues.length})`);
for (const q of r.queues) if (!exists('queue', wrangler('queues', 'info', q))) act('create', wrangler('queues', 'create', q));

// 4. Secrets, on both Workers (`wrangler secret put` creates a Worker that does not exist yet).
console.log(`\nSecrets ${r.secrets.join(', ')} on ${r.workers.map((w) => w.name).join(' and ')}`);
const haveSecrets = new Map();
for (const w of r.workers) {
  const list = wrangler('secret', 'list', '-c', w.config, '--env', env, '--format', 'json');
  if (dryRun) console.log(`  check   ${show('npx', list)}`);
  const res = dryRun ? null : run('npx', list, { capture: true, allowFailure: true });
  const names = res?.status === 0 ? JSON.parse(res.stdout).map((s) => s.name) : [];
  haveSecrets.set(w.config, new Set(names));
}
for (const name of r.secrets) {
  const missingOn = r.workers.filter((w) => reset.has(name) || !haveSecrets.get(w.config).has(name));
  if (!missingOn.length) {
    console.log(`  keep    ${name} (set on both Workers; --reset-secret ${name} replaces it)`);
    continue;
  }
  // Set on one Worker only (an interrupted run): the other must get the same value, never a new one
  // (a second TOKEN_ENCRYPTION_KEY could not read the tokens the first wrote).
  const partial = missingOn.length < r.workers.length;
  if (partial && !dryRun)
    console.log(`  ${name} is set on ${r.workers.find((w) => !missingOn.includes(w)).name} only: enter the same value it has.`);
  const value = dryRun ? '' : await secretValue(name, { mayGenerate: !partial });
  for (const w of missingOn) act('secret', wrangler('secret', 'put', name, '-c', w.config, '--env', env), { input: value });
}

console.log(`
${dryRun ? 'Nothing was changed.' : `${env} is provisioned.`} Next:
  npm run deploy -- --env ${env}            applies the D1 migrations remotely and deploys both Workers
  shopify app deploy --config ${env}         registers ${r.appUrl} (shopify.app.${env}.toml) with Shopify`);

/** A secret from the environment, or asked for without echo. */
async function secretValue(name, { mayGenerate }) {
  if (process.env[name]) return process.env[name];
  const generate = mayGenerate && name === 'TOKEN_ENCRYPTION_KEY';
  const value = await ask(`  ${name}${generate ? ' (empty: generate 32 random bytes)' : ''}: `);
  if (!value && generate) return randomBytes(32).toString('base64');
  if (!value) {
    console.error(`✗ ${name} is required`);
    process.exit(1);
  }
  return value;
}

function ask(prompt) {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    const write = rl._writeToOutput?.bind(rl);
    rl._writeToOutput = (s) => write?.(s.startsWith(prompt) ? prompt : ''); // no echo of the secret
    rl.question(prompt, (answer) => {
      rl.close();
      process.stdout.write('\n');
      resolve(answer.trim());
    });
  });
}
