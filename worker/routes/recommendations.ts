import { Hono } from 'hono';
import type { AppEnv } from '../types';

// /api/v1 recommendations data from configuration.
// Filled by issue #7.
export const recommendationsRoutes = new Hono<AppEnv>();
