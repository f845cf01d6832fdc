import { Hono } from 'hono';
import type { AppEnv } from '../types';

// /webhooks/*: Shopify webhooks (HMAC-checked raw body, deduplicated by X-Shopify-Webhook-Id).
// Filled by issue #3.
export const webhooksRoutes = new Hono<AppEnv>();
