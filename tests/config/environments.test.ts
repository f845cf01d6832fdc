// The deployed environments (staging, production) are the local configuration with their own resources:
// every [env.*] of both Workers repeats the top level's bindings, consumers and variables (wrangler does
// not inherit them), each shopify.app.<env>.toml equals the development app's but for its identity and
// URLs, and provisioning creates exactly what the configurations name (scripts/lib/environments.mjs).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { parseAppToml } from '../../emulator/app-toml';
import { environmentResources, withDatabaseId } from '../../scripts/lib/environments.mjs';
import { RETENTION_DAYS } from '../../shared/plans';

const ROOT = join(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const ENVIRONMENTS = ['staging', 'production'] as const;

type Consumer = { queue: string; dead_letter_queue?: string } & Record<string, unknown>;
type Config = {
  name: string;
  limits?: unknown;
  triggers?: unknown;
  d1_databases?: { binding: string; database_name: string; database_id: string; migrations_dir?: string }[];
  r2_buckets?: { binding: string; bucket_name: string }[];
  queues?: { producers?: { binding: string; queue: string }[]; consumers?: Consumer[] };
  ratelimits?: { name: string; namespace_id: string; simple: unknown }[];
  vars?: Record<string, string>;
  env?: Record<string, Config>;
};
const configs = {
  'wrangler.toml': parse(read('wrangler.toml')) as Config,
  'wrangler.images.toml': parse(read('wrangler.images.toml')) as Config,
};
const web = parse(read('shopify.web.toml')) as { auth_callback_path: string };

describe.each(Object.entries(configs))('%s', (_file, top) => {
  it.each(ENVIRONMENTS)('[env.%s] repeats the top level with <name>-<env> resources', (env) => {
    const e = top.env?.[env];
    expect(e, `[env.${env}]`).toBeDefined();
    const suffix = (name: string) => `${name}-${env}`;
    expect(e!.name).toBe(suffix(top.name));
    // Limits and triggers are inherited: an environment may not weaken them.
    expect(e!.limits).toBeUndefined();
    expect(e!.triggers).toBeUndefined();
    expect(e!.d1_databases).toEqual(
      top.d1_databases?.map((d) => ({
        ...d,
        database_name: suffix(d.database_name),
        database_id: e!.d1_databases![0]!.database_id,
      })),
    );
    expect(e!.r2_buckets).toEqual(top.r2_buckets?.map((b) => ({ ...b, bucket_name: suffix(b.bucket_name) })));
    expect(e!.queues?.producers).toEqual(top.queues?.producers?.map((p) => ({ ...p, queue: suffix(p.queue) })));
    expect(e!.queues?.consumers).toEqual(
      top.queues?.consumers?.map((c) => ({
        ...c,
        queue: suffix(c.queue),
        ...(c.dead_letter_queue ? { dead_letter_queue: suffix(c.dead_letter_queue) } : {}),
      })),
    );
    expect(e!.ratelimits?.map((r) => ({ ...r, namespace_id: '' }))).toEqual(
      top.ratelimits?.map((r) => ({ ...r, namespace_id: '' })),
    );
    expect(Object.keys(e!.vars ?? {})).toEqual(Object.keys(top.vars ?? {}));
    expect(e!.vars?.SHOPIFY_ORIGIN).toBe(''); // the real Shopify
    expect(e!.vars?.BILLING_TEST_CHARGES).toBe('false');
  });

  it('staging and production do not share a rate-limit namespace', () => {
    const ids = ENVIRONMENTS.flatMap((env) => top.env?.[env]?.ratelimits?.map((r) => r.namespace_id) ?? []);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe.each(ENVIRONMENTS)('shopify.app.%s.toml', (env) => {
  const dev = parseAppToml(read('shopify.app.toml'));
  const app = parseAppToml(read(`shopify.app.${env}.toml`));
  const vars = configs['wrangler.toml'].env![env]!.vars!;

  it('is the development app but for its identity and URLs, which are the Worker’s', () => {
    const common = (a: typeof app) => ({
      ...a,
      client_id: undefined,
      name: undefined,
      handle: undefined,
      application_url: undefined,
      auth: undefined,
      build: undefined,
    });
    expect(common(app)).toEqual(common(dev));
    expect(app.client_id).toBe(vars.SHOPIFY_API_KEY);
    expect(app.application_url).toBe(vars.APP_URL);
    expect(app.access_scopes?.scopes).toBe(vars.SHOPIFY_SCOPES);
    // The handle `shopify app deploy --config <env>` registers names our embed block in merchants' themes.
    expect(app.handle).toBe(vars.SHOPIFY_APP_HANDLE);
    expect(app.auth?.redirect_urls).toEqual([`${app.application_url}${web.auth_callback_path}`]);
    // `shopify app dev` must never rewrite a deployed app's URLs to a tunnel.
    expect(app.build?.automatically_update_urls_on_dev).toBe(false);
  });
});

describe('provisioning', () => {
  it.each(ENVIRONMENTS)('%s: one D1, one bucket, four queues and their dead-letter queues, three secrets', (env) => {
    const r = environmentResources(env, ROOT);
    expect(r.workers.map((w) => w.name)).toEqual([`image-speed-app-${env}`, `image-speed-app-images-${env}`]);
    expect(r.d1.name).toBe(`image-speed-app-${env}`);
    expect(r.bucket).toBe(`image-speed-app-files-${env}`);
    const base = ['catalogue-sync', 'image-optimise', 'pagespeed-check', 'shopify-webhooks'];
    expect(r.queues).toEqual(base.flatMap((q) => [`${q}-dlq-${env}`, `${q}-${env}`]).sort());
    expect(r.secrets).toEqual(['SHOPIFY_API_SECRET', 'TOKEN_ENCRYPTION_KEY', 'PAGESPEED_API_KEY']);
    // Every secret is a binding the Worker's generated Env type declares.
    const envType = read('worker/worker-configuration.d.ts');
    for (const s of r.secrets) expect(envType).toContain(`${s}: string;`);
  });

  it('the dry run for a made-up account names every command, and changes no file', () => {
    const before = ['wrangler.toml', 'wrangler.images.toml'].map(read);
    const res = spawnSync(
      process.execPath,
      ['scripts/provision.mjs', '--env', 'staging', '--dry-run', '--account-id', 'f'.repeat(32)],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    expect(res.status, res.stderr).toBe(0);
    const out = res.stdout;
    expect(out).toContain(`in account ${'f'.repeat(32)}`);
    expect(out).toContain('npx wrangler d1 create image-speed-app-staging');
    expect(out).toContain('npx wrangler r2 bucket create image-speed-app-files-staging');
    expect(out).toContain(
      'npx wrangler r2 bucket lifecycle set image-speed-app-files-staging --file config/r2-lifecycle.json --force',
    );
    for (const q of environmentResources('staging', ROOT).queues) expect(out).toContain(`npx wrangler queues create ${q}\n`);
    for (const s of ['SHOPIFY_API_SECRET', 'TOKEN_ENCRYPTION_KEY', 'PAGESPEED_API_KEY'])
      for (const c of ['wrangler.toml', 'wrangler.images.toml'])
        expect(out).toContain(`npx wrangler secret put ${s} -c ${c} --env staging`);
    expect(['wrangler.toml', 'wrangler.images.toml'].map(read)).toEqual(before);
  });

  it('writes the D1 id into its environment’s section only', () => {
    const text = read('wrangler.toml');
    const id = '12345678-9abc-def0-1234-56789abcdef0';
    const after = parse(withDatabaseId(text, 'staging', id)) as Config;
    expect(after.env?.staging?.d1_databases?.[0]?.database_id).toBe(id);
    expect(after.env?.production?.d1_databases?.[0]?.database_id).toBe(
      configs['wrangler.toml'].env?.production?.d1_databases?.[0]?.database_id,
    );
    expect(after.d1_databases?.[0]?.database_id).toBe(configs['wrangler.toml'].d1_databases?.[0]?.database_id);
  });
});

describe('R2 lifecycle rules (config/r2-lifecycle.json)', () => {
  type Rule = {
    id: string;
    enabled: boolean;
    conditions: { prefix: string };
    deleteObjectsTransition: { condition: { type: string; maxAge: number } };
  };
  const rules = (JSON.parse(read('config/r2-lifecycle.json')) as { rules: Rule[] }).rules;
  // What the optimiser keeps an original for (worker/optimise/run-context.ts KEEP_MS: the expiry it records,
  // which the admin shows as the restore date) and what the plans promise (shared/plans.ts RETENTION_DAYS).
  const keepExpr = /export const KEEP_MS = ([\d\s*]+);/.exec(read('worker/optimise/run-context.ts'))![1]!;
  const keepMs = keepExpr.split('*').reduce((p, n) => p * Number(n.trim()), 1);

  it('delete originals/ and uploads/ as many days after they were written as the admin promises', () => {
    expect(rules.map((r) => r.conditions.prefix).sort()).toEqual(['originals/', 'uploads/']);
    for (const r of rules) {
      expect(r.enabled).toBe(true);
      expect(r.deleteObjectsTransition.condition).toEqual({ type: 'Age', maxAge: RETENTION_DAYS * 86_400 });
      expect(r.deleteObjectsTransition.condition.maxAge * 1000).toBe(keepMs);
    }
  });
});
