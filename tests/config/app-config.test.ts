// shopify.app.toml read as Shopify CLI reads it (emulator/app-toml.ts cites the CLI's source):
// the theme app extension is found, the configuration carries what the app needs, and the API key and
// scopes have one source (shopify.app.toml) whose copies must not drift.
import { globSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { extensionTomlGlobs, parseAppToml } from '../../emulator/app-toml';

const ROOT = join(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const appToml = parseAppToml(read('shopify.app.toml'));
const wrangler = parse(read('wrangler.toml')) as { vars?: Record<string, string> };
const webToml = parse(read('shopify.web.toml')) as Record<string, unknown>;

/** Files under these folders whose string literals are scanned for hard-coded copies. */
const CODE_DIRS = ['worker', 'shared', 'admin/src', 'admin/index.html', 'scripts', 'tests', 'bench'];

function codeFiles(): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    const abs = join(ROOT, p);
    if (statSync(abs).isFile()) {
      if (/\.(ts|tsx|mjs|js|html)$/.test(p) && !p.endsWith('.min.js')) out.push(p);
      return;
    }
    for (const name of readdirSync(abs)) if (name !== 'node_modules' && !name.startsWith('.')) walk(join(p, name));
  };
  for (const d of CODE_DIRS) walk(d);
  return out;
}

/**
 * Scope lists in `text` that are copies of the source gone stale: they name all of its scopes but one or
 * more, yet are not exactly the source (a scope added or removed on one side only).
 */
function scopeCopiesThatDrift(text: string, scopes: string): string[] {
  const source = new Set(scopes.split(','));
  return [...text.matchAll(/['"`]((?:read|write)_[a-z_]+(?:,(?:read|write)_[a-z_]+)+)['"`]/g)]
    .map((m) => m[1]!)
    .filter((list) => list.split(',').filter((s) => source.has(s)).length >= source.size - 1 && list !== scopes);
}

describe('shopify.app.toml', () => {
  it('names the theme app extension folder, and Shopify CLI finds the extension there', () => {
    expect(appToml.extension_directories).toEqual(['storefront-script/extension']);
    const found = extensionTomlGlobs(appToml).flatMap((g) => globSync(g, { cwd: ROOT }));
    expect(found).toEqual(['storefront-script/extension/shopify.extension.toml']);
    const ext = parse(read(found[0]!)) as { type?: string; handle?: string };
    expect(ext).toMatchObject({ type: 'theme', handle: 'speed-prefetch' });
    // Without the key the CLI would look in extensions/* only, where nothing is.
    expect(
      extensionTomlGlobs({ ...appToml, extension_directories: undefined }).flatMap((g) => globSync(g, { cwd: ROOT })),
    ).toEqual([]);
  });

  it('application_url is the root; the OAuth callback is allowed and named in shopify.web.toml', () => {
    expect(new URL(appToml.application_url).pathname).toBe('/');
    expect(webToml.auth_callback_path).toBe('/shopify/callback');
    expect(appToml.auth?.redirect_urls).toEqual([
      `${new URL(appToml.application_url).origin}${String(webToml.auth_callback_path)}`,
    ]);
    expect(appToml.build).not.toHaveProperty('include_config_on_deploy');
  });
});

describe('API key, scopes and handle: one source (shopify.app.toml), copies that do not drift', () => {
  const scopes = appToml.access_scopes?.scopes ?? '';

  it('wrangler.toml [vars] carry the same API key, scopes and handle', () => {
    expect(scopes.split(',').length).toBeGreaterThan(3);
    expect(wrangler.vars?.SHOPIFY_API_KEY, 'wrangler.toml SHOPIFY_API_KEY = shopify.app.toml client_id').toBe(appToml.client_id);
    expect(wrangler.vars?.SHOPIFY_SCOPES, 'wrangler.toml SHOPIFY_SCOPES = shopify.app.toml access_scopes.scopes').toBe(scopes);
    expect(wrangler.vars?.SHOPIFY_APP_HANDLE, 'wrangler.toml SHOPIFY_APP_HANDLE = shopify.app.toml handle').toBe(appToml.handle);
  });

  it('the generated Env type (npm run types) says the same scopes', () => {
    const m = /SHOPIFY_SCOPES: "([^"]*)"/.exec(read('worker/worker-configuration.d.ts'));
    expect(m?.[1]).toBe(scopes);
  });

  it('no code carries its own copy: a literal listing (nearly) all the scopes is exactly the list; the API key is never a literal', () => {
    const drift: string[] = [];
    for (const file of codeFiles()) {
      const text = read(file);
      for (const list of scopeCopiesThatDrift(text, scopes)) drift.push(`${file}: ${list}`);
      if (text.includes(appToml.client_id)) drift.push(`${file}: the API key ${appToml.client_id}`);
    }
    expect(drift).toEqual([]);
  });

  it('the scan sees a drifted copy and lets a deliberately narrow test grant be', () => {
    const drifted = scopes.split(',').slice(1).join(',');
    expect(scopeCopiesThatDrift(`const SCOPES = '${drifted}';`, scopes)).toEqual([drifted]);
    expect(scopeCopiesThatDrift(`grant("read_products,write_files")`, scopes)).toEqual([]);
    expect(scopeCopiesThatDrift(`x = \`${scopes}\``, scopes)).toEqual([]);
  });
});
