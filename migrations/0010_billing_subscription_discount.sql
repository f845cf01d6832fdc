ALTER TABLE `shops` ADD `subscription_discount_cents` integer;--> statement-breakpoint
ALTER TABLE `shops` ADD `subscription_discount_until` integer;