import { Hono } from 'hono';
import type { AppEnv } from '../types';

// /storefront/*: the versioned prefetch script.
// Filled by issue #8.
export const storefrontRoutes = new Hono<AppEnv>();
