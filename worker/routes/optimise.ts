import { Hono } from 'hono';
import type { AppEnv } from '../types';

// /api/v2/image-opt optimise, re-optimise, restore, upload, progress and stop.
// Filled by issue #6.
export const optimiseRoutes = new Hono<AppEnv>();
