// Messages on WEBHOOK_QUEUE (`shopify-webhooks`): the work of a heavy webhook topic, sent once the
// delivery is verified and claimed (worker/webhooks/receive.ts), consumed by worker/webhooks/consumer.ts.

export type WebhookWorkMessage = {
  type: 'webhook';
  webhookId: string;
  /** The delivery's record key when it is not the id (a body key: worker/webhooks/receive.ts). */
  key?: string;
  topic: string;
  shopDomain: string;
  payload: Record<string, unknown>;
};
