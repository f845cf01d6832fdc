// `npm run deploy -- --env staging|production [--dry-run]`: builds the admin, applies the D1 migrations
// to the environment's remote database (they are additive: the Workers still running keep working), then
// deploys the image Worker and the HTTP Worker. Refuses an environment that was not provisioned (its D1
// id is still the placeholder: `npm run provision -- --env <name>`). --dry-run prints the steps and
// bundles both Workers with `wrangler deploy --dry-run` (no account needed). Rollback: README, Operations.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs, requireEnv, run, show } from './lib/cli.mjs';
import { environmentResources, PLACEHOLDER_D1_ID } from './lib/environments.mjs';

const USAGE = 'npm run deploy -- --env staging|production [--dry-run]';
const args = parseArgs(process.argv.slice(2));
const env = requireEnv(args, USAGE);
const dryRun = Boolean(args['dry-run']);
const r = environmentResources(env);

if (r.d1.id === PLACEHOLDER_D1_ID && !dryRun) {
  console.error(`✗ [env.${env}] has no D1 database id yet: run \`npm run provision -- --env ${env}\` first.`);
  process.exit(1);
}
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
// The deployment's message names the commit (`wrangler deployments list` shows it; rollback picks by it).
const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout?.trim() || 'unknown commit';

const steps = [
  ['npm', ['run', 'build:admin']],
  ['npx', ['wrangler', 'd1', 'migrations', 'apply', 'DB', '--remote', '--env', env]],
  // The consumer first: messages the new HTTP Worker sends are read by the new consumer code.
  ...r.workers
    .slice()
    .reverse()
    .map((w) => ['npx', ['wrangler', 'deploy', '-c', w.config, '--env', env, '--message', `${pkg.name} ${commit}`]]),
];
for (const [cmd, a] of steps) {
  if (dryRun && a.includes('migrations')) {
    console.log(`would run: ${show(cmd, a)}`);
    continue;
  }
  const args2 = dryRun && a[1] === 'deploy' ? [...a.slice(0, -2), '--dry-run', '--outdir', `.wrangler/dry-run/${a[3]}`] : a;
  console.log(`${dryRun ? 'dry run' : 'running'}: ${show(cmd, args2)}`);
  run(cmd, args2);
}
console.log(`
${dryRun ? 'Dry run done: nothing was deployed.' : `Deployed ${r.workers.map((w) => w.name).join(' and ')} (${r.appUrl}).`}
  Logs:      npx wrangler tail --env ${env}   (and -c wrangler.images.toml)
  Roll back: npx wrangler rollback --env ${env}   (and -c wrangler.images.toml; migrations stay, they are additive)
  Shopify:   shopify app deploy --config ${env}   (URLs, scopes, webhooks, the theme app extension)`);
