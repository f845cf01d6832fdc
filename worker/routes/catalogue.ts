import { Hono } from 'hono';
import type { AppEnv } from '../types';

// /api/v1/getImageSyncStatus and catalogue sync start.
// Filled by issue #5.
export const catalogueRoutes = new Hono<AppEnv>();
