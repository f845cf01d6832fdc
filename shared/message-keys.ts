import type { MessageKey } from './messages';

// Keys the admin tells apart in an answer, to handle the refusal itself (the plan-limit dialog, the page
// speed check's "checked a moment ago"): compared, never shown, so the admin needs no text for them. A
// module of their own: shared/messages.ts would bring the Worker's English table into the admin's entry.
export const PLAN_LIMIT_KEY = 'server.optimise.planLimit' satisfies MessageKey;
export const PAGESPEED_COOLDOWN_KEY = 'server.limits.pagespeedCooldown' satisfies MessageKey;
