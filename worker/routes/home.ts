import { Hono } from 'hono';
import type { AppEnv } from '../types';

// /api/v2/home: theme app-embed status and page-speed score.
// Filled by issue #8.
export const homeRoutes = new Hono<AppEnv>();
