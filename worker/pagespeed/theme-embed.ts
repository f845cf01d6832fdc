// Is this app's embed switched on in the main theme? Shopify has no API for it: the answer is in the
// theme's config/settings_data.json, under current.blocks, one entry per app embed the merchant ever
// touched: {type: 'shopify://apps/<app handle>/blocks/<block handle>/<extension uuid>', disabled, settings}.

/** The app embed block's handle: storefront-script/extension/blocks/prefetch.liquid. */
export const EMBED_BLOCK_HANDLE = 'prefetch';

/** Embed status of GET /api/v2/home/checkThemeAppExtension: 1 on, 0 off. */
export const EMBED_STATUS = { off: 0, on: 1 } as const;

// The app handle is not matched: merchants never see it, the Partner dashboard lets it be renamed, and
// the block handle plus an extension uuid already names our block.
const blockType = (blockHandle: string) => new RegExp(`^shopify://apps/[^/]+/blocks/${blockHandle}/[0-9a-f-]{8,}$`, 'i');

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
export function embedStatusFromSettings(settings: Record<string, unknown> | undefined, blockHandle = EMBED_BLOCK_HANDLE): 0 | 1 {
  const current = settings && currentSettings(settings);
  const blocks = current?.blocks;
  if (!isObject(blocks)) return EMBED_STATUS.off;
  const pattern = blockType(blockHandle);
  const ours = Object.values(blocks).filter(
    (block): block is Record<string, unknown> => isObject(block) && typeof block.type === 'string' && pattern.test(block.type),
  );
  // Shopify writes "disabled": true when the merchant switches the embed off; absent means on.
  return ours.some((block) => block.disabled !== true && block.disabled !== 'true') ? EMBED_STATUS.on : EMBED_STATUS.off;
}

export function embedStatusFromSettingsText(text: string | null | undefined): 0 | 1 {
  return text ? embedStatusFromSettings(parseSettingsData(text)) : EMBED_STATUS.off;
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
