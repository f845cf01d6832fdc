ALTER TABLE `images` ADD `synced_at` integer;--> statement-breakpoint
ALTER TABLE `items` ADD `synced_at` integer;