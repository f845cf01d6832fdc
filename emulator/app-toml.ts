// shopify.app.toml read the way Shopify CLI reads it, so the emulator delivers webhooks where Shopify
// would and the conformance tests post where Shopify would. Pure (no node: imports): it also runs inside
// workerd (tests/worker/webhooks/conformance.test.ts).
//
// What Shopify CLI does (Shopify/cli at a0798d198d1c, August 2026; packages/app/src/cli/models/extensions/specifications/):
// - a subscription's `uri` first loses its trailing slashes (validation/common.ts `removeTrailingSlash`:
//   `/\/+$/` removed), in the schema's preprocess step (app_config_webhook_schemas/webhook_subscription_schema.ts);
// - topic subscriptions (app_config_webhook_subscription.ts, forward transform `prependApplicationUrl` in
//   validation/url_prepender.ts): a uri starting with '/' becomes removeTrailingSlash(application_url) + uri;
//   anything else (https://, pubsub://, arn:aws:events:...) is used as written;
// - compliance topics (app_config_privacy_compliance_webhooks.ts `relativeUri`): the uri of the first
//   subscription listing the compliance topic, joined the same way.
// So a relative uri is appended to the WHOLE application_url, path included: an application_url of
// https://x/auth/install would send every topic to https://x/auth/install/webhooks/shopify.
// `shopify app dev` swaps application_url for its tunnel (automatically_update_urls_on_dev): callers pass
// the app URL they run under as `applicationUrl`.
import { parse } from 'smol-toml';

export type AppTomlSubscription = {
  topics?: string[];
  compliance_topics?: string[];
  uri: string;
  include_fields?: string[];
  filter?: string;
};

export type AppToml = {
  client_id: string;
  /** The app's handle (`shopify://apps/<handle>/blocks/...` in themes); `shopify app deploy` registers it. */
  handle?: string;
  application_url: string;
  embedded?: boolean;
  extension_directories?: string[];
  access_scopes?: { scopes?: string };
  auth?: { redirect_urls?: string[] };
  build?: Record<string, unknown>;
  webhooks?: { api_version?: string; subscriptions?: AppTomlSubscription[] };
};

export function parseAppToml(text: string): AppToml {
  return parse(text) as unknown as AppToml;
}

/** Shopify CLI's removeTrailingSlash. */
export function removeTrailingSlash(s: string): string {
  return s.endsWith('/') ? s.replace(/\/+$/, '') : s;
}

/** Shopify CLI's prependApplicationUrl (and, for compliance topics, relativeUri: the same join). */
export function resolveUri(uri: string, applicationUrl: string | undefined): string {
  const u = removeTrailingSlash(uri);
  return applicationUrl && u.startsWith('/') ? `${removeTrailingSlash(applicationUrl)}${u}` : u;
}

export type WebhookTarget = { topic: string; url: string; compliance: boolean; includeFields?: string[] };

/** Where Shopify delivers each subscribed topic, and which payload fields it sends (undefined: all). */
export function resolveWebhookTargets(config: AppToml, applicationUrl = config.application_url): WebhookTarget[] {
  const subs = config.webhooks?.subscriptions ?? [];
  const targets: WebhookTarget[] = [];
  for (const s of subs) {
    for (const topic of s.topics ?? [])
      targets.push({ topic, url: resolveUri(s.uri, applicationUrl), compliance: false, includeFields: s.include_fields });
  }
  for (const topic of ['customers/data_request', 'customers/redact', 'shop/redact']) {
    const s = subs.find((x) => x.compliance_topics?.includes(topic));
    if (s) targets.push({ topic, url: resolveUri(s.uri, applicationUrl), compliance: true });
  }
  return targets;
}

/**
 * The globs under which Shopify CLI looks for extensions (models/project/project.ts
 * `discoverExtensionFiles`: `<dir>/*.extension.toml` for each extension_directories entry, trailing
 * separators removed as models/app/app.ts does; `extensions/*` when the key is absent).
 */
export function extensionTomlGlobs(config: AppToml): string[] {
  const dirs = Array.isArray(config.extension_directories)
    ? config.extension_directories.map((d) => d.replace(/[/\\]+$/, ''))
    : ['extensions/*'];
  return dirs.map((d) => `${d}/*.extension.toml`);
}

/** Keeps only the top-level fields a subscription's include_fields names, as Shopify does. */
export function applyIncludeFields(payload: unknown, includeFields: string[] | undefined): unknown {
  if (!includeFields || includeFields.length === 0 || typeof payload !== 'object' || payload === null) return payload;
  return Object.fromEntries(Object.entries(payload).filter(([k]) => includeFields.includes(k)));
}
