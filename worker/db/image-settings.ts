import { and, eq, isNull } from 'drizzle-orm';
import { defaultImageSettings, type ImageSettings } from '../../shared/image-settings';
import { imageSettingsSchema } from '../../shared/image-settings-schema';
import { bit } from '../lib/bit';
import type { Db } from './client';
import { imageSettings, shops } from './schema';

export type StoredImageSettings = {
  settings: ImageSettings;
  watermarkKey: string | null;
  backupConsent: boolean;
  exists: boolean;
};

/** The shop's image settings with their storage facts; the defaults (is_default 1) when never saved. */
export async function getStoredImageSettings(db: Db, shopId: number): Promise<StoredImageSettings> {
  const row = await db.select().from(imageSettings).where(eq(imageSettings.shopId, shopId)).get();
  if (!row) return { settings: defaultImageSettings(), watermarkKey: null, backupConsent: false, exists: false };
  const defaults = defaultImageSettings();
  // Stored JSON was validated on save; parsing again fills fields added to the shape since then.
  const parsed = imageSettingsSchema.safeParse({
    is_default: bit(row.usingDefaults),
    auto_switch: bit(row.autoOptimise),
    image_opt: { ...defaults.image_opt, ...row.imageOpt },
    alt_text: { ...defaults.alt_text, ...row.altText },
    file_name: { ...defaults.file_name, ...row.fileName },
  });
  return {
    settings: parsed.success ? parsed.data : defaults,
    watermarkKey: row.watermarkKey,
    backupConsent: row.backupConsent,
    exists: true,
  };
}

/** The shop's image settings (the documented shape); defaults when the shop never saved any. */
export async function getImageSettings(db: Db, shopId: number): Promise<ImageSettings> {
  return (await getStoredImageSettings(db, shopId)).settings;
}

type SaveExtra = { watermarkKey?: string | null; backupConsent?: boolean };

/** Inserts or replaces the shop's settings. Upload-only fields never reach the row. */
export async function saveImageSettings(db: Db, shopId: number, settings: ImageSettings, extra: SaveExtra = {}): Promise<void> {
  await upsertQuery(db, shopId, settings, extra);
}

/** The wizard's save (saveNewGuideCfg): settings, 30-day backup consent and the cleared guide flag, atomically. */
export async function completeGuide(db: Db, shopId: number, settings: ImageSettings, extra: SaveExtra): Promise<void> {
  await db.batch([
    upsertQuery(db, shopId, settings, extra),
    db.update(shops).set({ setupGuidePending: false, updatedAt: Date.now() }).where(eq(shops.id, shopId)),
  ]);
}

function upsertQuery(db: Db, shopId: number, settings: ImageSettings, extra: SaveExtra) {
  const { file_data: _d, file_name: _n, ...watermark } = settings.image_opt.watermark;
  const values = {
    usingDefaults: settings.is_default === 1,
    autoOptimise: settings.auto_switch === 1,
    imageOpt: { ...settings.image_opt, watermark },
    altText: settings.alt_text,
    fileName: settings.file_name,
    updatedAt: Date.now(),
    ...(extra.watermarkKey !== undefined ? { watermarkKey: extra.watermarkKey } : {}),
    ...(extra.backupConsent !== undefined ? { backupConsent: extra.backupConsent } : {}),
  };
  return db
    .insert(imageSettings)
    .values({ shopId, ...values })
    .onConflictDoUpdate({ target: imageSettings.shopId, set: values });
}

/** Only the mode toggle (the toggle saves only auto_switch). */
export async function setAutoSwitch(db: Db, shopId: number, autoSwitch: 0 | 1): Promise<void> {
  await db
    .update(imageSettings)
    .set({ autoOptimise: autoSwitch === 1, updatedAt: Date.now() })
    .where(eq(imageSettings.shopId, shopId));
}

/** Shops with automatic optimisation on (the webhook-driven auto jobs read this). */
export async function isAutoOptimiseOn(db: Db, shopId: number): Promise<boolean> {
  const row = await db
    .select({ on: imageSettings.autoOptimise, defaults: imageSettings.usingDefaults })
    .from(imageSettings)
    .where(eq(imageSettings.shopId, shopId))
    .get();
  return !!row && row.on && !row.defaults;
}

/** Shops with automatic optimisation on, configured, and installed. */
export async function listAutoShops(db: Db): Promise<{ id: number }[]> {
  return db
    .select({ id: shops.id })
    .from(shops)
    .innerJoin(imageSettings, eq(imageSettings.shopId, shops.id))
    .where(and(eq(imageSettings.autoOptimise, true), eq(imageSettings.usingDefaults, false), isNull(shops.uninstalledAt)))
    .all();
}
