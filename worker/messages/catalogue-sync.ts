// Messages on SYNC_QUEUE (`catalogue-sync`): sent by install and the products/collections webhooks,
// consumed by worker/catalogue/consumer.ts.

/** Full catalogue sync: after install, reinstall and re-authorisation. */
export type SyncCatalogueMessage = { type: 'sync'; shopId: number };

/**
 * One product or collection changed on Shopify (webhooks products/* and collections/*). The consumer
 * refetches it (getProduct / getCollection) and updates the catalogue; *_deleted marks it deleted.
 */
export type ResourceChangedMessage = {
  type: 'product_changed' | 'product_deleted' | 'collection_changed' | 'collection_deleted';
  shopId: number;
  resourceId: string; // numeric id as a string
  gid: string; // gid://shopify/Product/123
  updatedAt: string | null;
  webhookId: string;
};

export type SyncQueueMessage = SyncCatalogueMessage | ResourceChangedMessage;

export async function enqueueSync(queue: Queue<SyncQueueMessage> | Queue, message: SyncQueueMessage): Promise<void> {
  await (queue as Queue<SyncQueueMessage>).send(message, { contentType: 'json' });
}
