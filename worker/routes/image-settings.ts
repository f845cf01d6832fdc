import { Hono } from 'hono';
import { z } from 'zod';
import { ack } from '../lib/envelope';
import { parseInput, readBody } from '../lib/validate';
import { readSettings, saveSettings } from '../settings/save-settings';
import { readTemplateSample } from '../settings/template-sample';
import type { AppEnv } from '../types';
import type { AckEnvelope, V1Envelope } from '../../shared/api/envelope';
import type { ImageSettings, TemplateSample } from '../../shared/api/settings';

// /api/v2/image-opt getSettings / saveSettings / getTemplateSample and /api/v1/saveNewGuideCfg.
export const imageSettingsRoutes = new Hono<AppEnv>();

imageSettingsRoutes.get('/api/v2/image-opt/getSettings', async (c) =>
  ack<ImageSettings>(c, await readSettings(c.get('db'), c.get('shop').id)),
);

// The live preview's sample: one real product, collection and blog post of the shop (read-only).
imageSettingsRoutes.get('/api/v2/image-opt/getTemplateSample', async (c) =>
  ack<TemplateSample>(c, await readTemplateSample(c.get('db'), c.get('shop'))),
);

imageSettingsRoutes.post('/api/v2/image-opt/saveSettings', async (c) => {
  const body = await readBody(c);
  const shop = c.get('shop');
  const saved = await saveSettings({ db: c.get('db'), bucket: c.env.BUCKET, shopId: shop.id }, body);
  c.get('log').info('image_settings_saved', { auto: saved.auto_switch });
  return ack<ImageSettings>(c, saved);
});

// The wizard: page5 {day_backup: 1} plus the settings; success is ack 1,
// and the v1 code/msg pair is answered too so older clients reading code '200' agree.
const guideSchema = z.object({
  page5: z.object({ day_backup: z.coerce.number().int().min(0).max(1) }).optional(),
  settings: z.record(z.string(), z.unknown()),
});

/**
 * The wizard's image_opt is documented without a switch ("image_opt {product, collection, blogs, pngtojpg,
 * each 0 or 1}", page-speed-and-app.md section 3): its image types are the switch, so every type unticked
 * is compression off, not the "at least one item" refusal. A client that sends a switch keeps it.
 */
export function wizardSettings(settings: Record<string, unknown>): Record<string, unknown> {
  const io = settings.image_opt;
  if (typeof io !== 'object' || io === null || Array.isArray(io) || 'switch' in io) return settings;
  const types = (['product', 'collection', 'blogs'] as const).map((k) => (io as Record<string, unknown>)[k]);
  if (types.every((v) => v === undefined)) return settings;
  const ticked = types.some((v) => v !== undefined && Number(v) > 0);
  return { ...settings, image_opt: { ...io, switch: ticked ? 1 : 0 } };
}

imageSettingsRoutes.post('/api/v1/saveNewGuideCfg', async (c) => {
  const body = parseInput(guideSchema, await readBody(c));
  const shop = c.get('shop');
  const saved = await saveSettings({ db: c.get('db'), bucket: c.env.BUCKET, shopId: shop.id }, wizardSettings(body.settings), {
    guide: { backupConsent: body.page5?.day_backup === 1 },
  });
  return c.json({ ack: 1, code: '200', message: 'success', msg: 'success', data: saved } satisfies AckEnvelope<ImageSettings> &
    V1Envelope<ImageSettings>);
});
