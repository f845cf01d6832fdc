ALTER TABLE `processed_webhooks` ADD `status` text DEFAULT 'done' NOT NULL;--> statement-breakpoint
ALTER TABLE `processed_webhooks` ADD `lease_until` integer;