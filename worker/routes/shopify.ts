import { Hono } from 'hono';
import type { AppEnv } from '../types';

// /shopify/*: install landing, OAuth callback, re-authorisation, billing return.
// Filled by issue #3.
export const shopifyRoutes = new Hono<AppEnv>();
