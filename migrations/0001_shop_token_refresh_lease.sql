ALTER TABLE `shops` ADD `token_refresh_lease_id` text;--> statement-breakpoint
ALTER TABLE `shops` ADD `token_refresh_lease_until` integer;