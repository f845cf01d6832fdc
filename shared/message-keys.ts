import type { MessageKey } from './messages';

// Keys the admin tells apart in an answer, to handle the refusal itself (the plan-limit dialog, the page
// speed check's "checked a moment ago", the details screen's "Item not found"): compared, never shown, so the admin needs no text for them. A
// module of their own: shared/messages.ts would bring the Worker's English table into the admin's entry.
export const PLAN_LIMIT_KEY = 'server.optimise.planLimit' satisfies MessageKey;
export const PAGESPEED_COOLDOWN_KEY = 'server.limits.pagespeedCooldown' satisfies MessageKey;
export const ITEM_NOT_FOUND_KEY = 'server.optimise.itemNotFound' satisfies MessageKey;
