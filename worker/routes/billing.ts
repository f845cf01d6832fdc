import { Hono } from 'hono';
import type { AppEnv } from '../types';

// /api/v1 getPricingPlans and changePlans.
// Filled by issue #7.
export const billingRoutes = new Hono<AppEnv>();
