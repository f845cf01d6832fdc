import { Hono } from 'hono';
import type { AppEnv } from '../types';

// /api/v2/image-opt getSettings / saveSettings and /api/v1/saveNewGuideCfg.
// Filled by issue #5.
export const imageSettingsRoutes = new Hono<AppEnv>();
