import { Hono } from 'hono';
import type { AppEnv } from '../types';

// /api/v1 getAppDashboardData, getAppSettingData, updateAppSettingDataNew: a view over the settings store.
// Filled by issue #5.
export const legacySettingsRoutes = new Hono<AppEnv>();
