import type { Db } from '../db/client';
import type { ShopRow } from '../db/shops';
import { apiError } from '../lib/errors';
import { ShopifyThrottledError, getMainThemeSettingsData, shopBaseUrl, shopifyClientFor } from '../shopify';
import { embedDeepLink, embedStatusFromSettingsText, ourEmbed } from './theme-embed';
import type { EmbedStatus } from '../../shared/api/vocabulary';

export type { EmbedStatus };

/**
 * checkThemeAppExtension: whether the prefetch app embed is on in the main theme, and the theme-editor
 * link that switches it on. Read fresh each time: the admin polls every 3 s after a Speed up / Turn off
 * click until the status changes, so a cache would only delay it.
 */
export async function checkThemeEmbed(env: Env, db: Db, shop: ShopRow): Promise<EmbedStatus> {
  const url = embedDeepLink(shopBaseUrl(env, shop.domain), env.SHOPIFY_API_KEY);
  try {
    const theme = await getMainThemeSettingsData(shopifyClientFor(env, db, shop));
    return { url, status: embedStatusFromSettingsText(theme?.content, ourEmbed(env)) };
  } catch (error) {
    if (error instanceof ShopifyThrottledError) throw apiError(503, 'server.common.tryAgainLater');
    throw error;
  }
}
