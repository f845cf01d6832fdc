import { eq, lt } from 'drizzle-orm';
import type { Db } from './client';
import { processedWebhooks } from './schema';

/**
 * Claims a webhook delivery by its X-Shopify-Webhook-Id. The primary key makes the insert the arbiter:
 * a second delivery of the same id (Shopify retries, or two deliveries racing) gets false.
 */
export async function claimWebhook(db: Db, webhookId: string, shopDomain: string, topic: string): Promise<boolean> {
  const rows = await db.insert(processedWebhooks).values({ webhookId, shopDomain, topic }).onConflictDoNothing().returning({ id: processedWebhooks.webhookId }).all();
  return rows.length === 1;
}

/** Undoes a claim when handling failed, so Shopify's retry is processed instead of skipped. */
export async function releaseWebhook(db: Db, webhookId: string): Promise<void> {
  await db.delete(processedWebhooks).where(eq(processedWebhooks.webhookId, webhookId));
}

/** Shopify retries for up to 48 hours; ids older than that can go. */
export async function pruneProcessedWebhooks(db: Db, before: number): Promise<void> {
  await db.delete(processedWebhooks).where(lt(processedWebhooks.receivedAt, before));
}
