// The optional support chat widget (decisions.md "Support chat": a configured chat-widget URL,
// SUPPORT_CHAT_URL, read from GET /app-config). "A chat widget starts with user info"
// (page-speed-and-app.md section 7): it opens with the merchant's name, email, shop and plan tag, and the
// request prefilled; without a configured URL the contact form is the channel.
import { planFor } from '../../../shared/plans';

/** "Plan names in the support chat tag: Free for 0, otherwise Premium at $4.99 ... $149.99" (section 6). */
export function planTag(level: number): string {
  const plan = planFor(level);
  return plan.level === 0 ? 'Free' : `Premium $${(plan.priceCents / 100).toFixed(2)}`;
}

export type ChatUser = { name: string; email: string; shop: string; level: number; language: string };

/** The chat page's address with the user info and the prefilled message as query parameters. */
export function supportChatUrl(base: string, user: ChatUser, message: string): string {
  const url = new URL(base);
  url.searchParams.set('name', user.name);
  url.searchParams.set('email', user.email);
  url.searchParams.set('shop', user.shop);
  url.searchParams.set('plan', planTag(user.level));
  url.searchParams.set('language', user.language);
  if (message) url.searchParams.set('message', message);
  return url.toString();
}
