// Is this app's embed switched on in the main theme? Shopify has no API for it: the answer is in the
// theme's config/settings_data.json, under current.blocks, one entry per app embed the merchant ever
// touched: {type: 'shopify://apps/<app handle>/blocks/<block handle>/<extension uuid>', disabled, settings}
// (shopify.dev, theme app extensions, "Detecting app blocks and app embed blocks").

/** The app embed block's handle: storefront-script/extension/blocks/prefetch.liquid. */
export const EMBED_BLOCK_HANDLE = 'prefetch';

/** Embed status of GET /api/v2/home/checkThemeAppExtension: 1 on, 0 off. */
export const EMBED_STATUS = { off: 0, on: 1 } as const;

/**
 * Our embed block, as Shopify names it in a block type: our app handle (SHOPIFY_APP_HANDLE, the copy of
 * shopify.app.<env>.toml's `handle`) and, when configured, our theme extension's uuid
 * (SHOPIFY_SPEED_PREFETCH_ID, the name Shopify CLI gives it). Block handles are each app's own choice, so
 * another app's `prefetch` embed must not count: the merchant would be told the speed-up is on while the
 * store gets none. The app handle can be renamed in the Partner Dashboard, yet matching it is right: every
 * `shopify app deploy` sends the file's `handle` as the app's handle (Shopify CLI, branding module
 * app_config_branding.ts: `app_handle: 'handle'`), so the file, and with it the Worker's copy
 * (tests/config/app-config.test.ts), is what Shopify writes into the theme.
 */
export type OurEmbed = { appHandle: string; extensionId?: string };

type EmbedEnv = { SHOPIFY_APP_HANDLE: string; SHOPIFY_SPEED_PREFETCH_ID?: string };

export function ourEmbed(env: EmbedEnv): OurEmbed {
  const extensionId = (env.SHOPIFY_SPEED_PREFETCH_ID ?? '').trim();
  return { appHandle: env.SHOPIFY_APP_HANDLE.trim(), ...(extensionId ? { extensionId } : {}) };
}

const BLOCK_TYPE = /^shopify:\/\/apps\/([^/]+)\/blocks\/([^/]+)\/([0-9a-f-]{8,})$/i;

/** Whether a block type names our embed block: our app handle, our block handle and (when set) our extension uuid. */
export function isOurBlockType(type: string, ours: OurEmbed, blockHandle = EMBED_BLOCK_HANDLE): boolean {
  const [, app, block, uuid] = BLOCK_TYPE.exec(type) ?? [];
  if (!ours.appHandle || app !== ours.appHandle || block !== blockHandle) return false;
  return !ours.extensionId || uuid === ours.extensionId;
}

/**
 * settings_data.json as Shopify stores it: a JSON object, usually after a leading comment block
 * ("IMPORTANT: The contents of this file are auto-generated..."). Returns undefined when unreadable.
 */
export function parseSettingsData(text: string): Record<string, unknown> | undefined {
  const json = text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .replace(/^(?:\/\*[\s\S]*?\*\/\s*|\/\/[^\n]*\n\s*)*/, '');
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

/** `current` is the live settings object, or the name of one of `presets` (older themes). */
function currentSettings(settings: Record<string, unknown>): Record<string, unknown> | undefined {
  const current = settings.current;
  if (isObject(current)) return current;
  if (typeof current === 'string' && isObject(settings.presets)) {
    const preset = settings.presets[current];
    return isObject(preset) ? preset : undefined;
  }
  return undefined;
}

/** 1 when at least one block of ours is present and not disabled, else 0. */
export function embedStatusFromSettings(settings: Record<string, unknown> | undefined, embed: OurEmbed): 0 | 1 {
  const current = settings && currentSettings(settings);
  const blocks = current?.blocks;
  if (!isObject(blocks)) return EMBED_STATUS.off;
  const ours = Object.values(blocks).filter(
    (block): block is Record<string, unknown> =>
      isObject(block) && typeof block.type === 'string' && isOurBlockType(block.type, embed),
  );
  // Shopify writes "disabled": true when the merchant switches the embed off; absent means on.
  return ours.some((block) => block.disabled !== true && block.disabled !== 'true') ? EMBED_STATUS.on : EMBED_STATUS.off;
}

export function embedStatusFromSettingsText(text: string | null | undefined, embed: OurEmbed): 0 | 1 {
  return text ? embedStatusFromSettings(parseSettingsData(text), embed) : EMBED_STATUS.off;
}

/**
 * The theme-editor deep link that opens App embeds with ours selected and switched on (the merchant
 * still presses Save). Shopify: `https://<shop>/admin/themes/current/editor?context=apps&activateAppId=<api key>/<block handle>`.
 * `shopBase` is https://<shop> in production; locally, the store emulator's base for the shop.
 */
export function embedDeepLink(shopBase: string, apiKey: string, blockHandle = EMBED_BLOCK_HANDLE): string {
  const url = new URL(`${shopBase.replace(/\/+$/, '')}/admin/themes/current/editor`);
  url.searchParams.set('context', 'apps');
  url.searchParams.set('activateAppId', `${apiKey}/${blockHandle}`);
  // Keep the slash readable, as Shopify documents the link.
  return url.toString().replace('%2F', '/');
}
