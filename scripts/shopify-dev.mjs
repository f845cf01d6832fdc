// `shopify app dev` runs this (shopify.web.toml `commands.dev`, as `npm run dev:shopify`): both Workers
// under wrangler dev on the CLI's PORT, talking to the real Shopify. The CLI passes PORT, HOST (its tunnel
// URL), SHOPIFY_API_KEY and SHOPIFY_API_SECRET in the environment; they become the Workers' variables,
// and SHOPIFY_ORIGIN is emptied so requests go to https://<shop>.myshopify.com instead of the store
// emulator named in .dev.vars. The CLI runs commands without a shell (it splits them on `&&` and spaces:
// tests/config/shopify-cli-dev.test.ts), so the quoting lives here. SHOPIFY_DEV_PRINT=1 prints the
// command instead of running it.
import { spawn } from 'node:child_process';
import { devWorkerArgs } from './lib/dev-workers.mjs';

const { PORT, HOST, SHOPIFY_API_KEY, SHOPIFY_API_SECRET } = process.env;
for (const [name, value] of Object.entries({ PORT, HOST, SHOPIFY_API_KEY, SHOPIFY_API_SECRET })) {
  if (!value) {
    console.error(`${name} is not set: run this through \`shopify app dev\`.`);
    process.exit(1);
  }
}

const args = [
  'wrangler',
  'dev',
  ...devWorkerArgs({
    dir: '.wrangler/shopify-dev',
    vars: { APP_URL: HOST, SHOPIFY_API_KEY, SHOPIFY_API_SECRET, SHOPIFY_ORIGIN: '' },
  }),
  '--port',
  PORT,
  '--ip',
  '127.0.0.1',
  '--show-interactive-dev-session=false',
];

if (process.env.SHOPIFY_DEV_PRINT === '1') {
  console.log(JSON.stringify(['npx', ...args]));
  process.exit(0);
}
const child = spawn('npx', args, { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 1));
