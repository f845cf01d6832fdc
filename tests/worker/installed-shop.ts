import { env } from 'cloudflare:test';
import type { ShopRow } from '../../worker/db/shops';
import { encryptSecret } from '../../worker/lib/crypto';
import type { EmulatorShop } from './emulator-client';
import { createShop } from './helpers';

/** The app's row for an emulator shop that was installed there: its tokens stored encrypted, as OAuth would. */
export async function installedShopFor(emu: EmulatorShop): Promise<ShopRow> {
  const t = emu.tokens!;
  const enc = (s: string) => encryptSecret(env.TOKEN_ENCRYPTION_KEY, s);
  const { shop } = await createShop({
    domain: emu.domain,
    accessTokenEnc: await enc(t.access_token),
    accessTokenExpiresAt: Date.now() + (t.expires_in ?? 3600) * 1000,
    refreshTokenEnc: t.refresh_token ? await enc(t.refresh_token) : null,
    refreshTokenExpiresAt: t.refresh_token_expires_in ? Date.now() + t.refresh_token_expires_in * 1000 : null,
  });
  return shop;
}
