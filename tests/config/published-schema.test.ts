// The Admin GraphQL schema the emulator validates against is committed (emulator/graphql/schema/)
// instead of installing @shopify/dev-mcp: it is the published file byte for byte, for the pinned version.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publishedVersions, schemaSha256 } from '../../emulator/graphql/published-schema';

const ROOT = join(import.meta.dirname, '../..');
// The pinned version, read from its one place (worker/shopify/api-version.ts uses the Worker's Env type).
const SHOPIFY_API_VERSION = /SHOPIFY_API_VERSION = '([^']+)'/.exec(
  readFileSync(join(ROOT, 'worker/shopify/api-version.ts'), 'utf8'),
)![1]!;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};

describe('the committed Admin GraphQL schema', () => {
  it('is the pinned version, with the sha256 its README records', () => {
    expect(publishedVersions()).toEqual([SHOPIFY_API_VERSION]);
    const readme = readFileSync(join(ROOT, 'emulator/graphql/schema/README.md'), 'utf8');
    expect(readme).toContain(`admin_${SHOPIFY_API_VERSION}.json.gz`);
    expect(readme).toContain(schemaSha256(SHOPIFY_API_VERSION));
  });

  it('replaces @shopify/dev-mcp, which is not installed', () => {
    expect({ ...pkg.dependencies, ...pkg.devDependencies }).not.toHaveProperty('@shopify/dev-mcp');
  });
});
