import { Hono } from 'hono';
import type { AppEnv } from '../types';

// /imageAddWatermark/<name> and signed /files/* downloads of originals and results.
// Filled by issue #5.
export const filesRoutes = new Hono<AppEnv>();
