import { Hono } from 'hono';
import type { AppEnv } from '../types';

// /api/v2/image-opt history, detail, statistics and download calls.
// Filled by issue #5.
export const historyRoutes = new Hono<AppEnv>();
