CREATE TABLE `admin_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`shop_id` integer NOT NULL,
	`token_hash` text NOT NULL,
	`user_id` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`shop_id`) REFERENCES `shops`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `admin_tokens_hash_uq` ON `admin_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `admin_tokens_shop_idx` ON `admin_tokens` (`shop_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `shop_allowances` (
	`shop_id` integer NOT NULL,
	`kind` text NOT NULL,
	`window_start` integer NOT NULL,
	`used` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`shop_id`, `kind`, `window_start`),
	FOREIGN KEY (`shop_id`) REFERENCES `shops`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `shop_allowances_window_idx` ON `shop_allowances` (`window_start`);--> statement-breakpoint
CREATE INDEX `oauth_states_expires_idx` ON `oauth_states` (`expires_at`);--> statement-breakpoint
-- Existing per-shop admin tokens move to admin_tokens with a 30-day expiry; the old column is cleared.
INSERT INTO `admin_tokens` (`shop_id`, `token_hash`, `user_id`, `created_at`, `expires_at`)
  SELECT `id`, `admin_token_hash`, '', coalesce(`admin_token_created_at`, cast(unixepoch('subsec') * 1000 as integer)),
         cast(unixepoch('subsec') * 1000 as integer) + 2592000000
  FROM `shops` WHERE `admin_token_hash` IS NOT NULL;
--> statement-breakpoint
UPDATE `shops` SET `admin_token_hash` = NULL, `admin_token_created_at` = NULL WHERE `admin_token_hash` IS NOT NULL;
--> statement-breakpoint
-- Uploads stored before uploads expired from the start (failed or skipped ones had no expiry): 30 days from their creation.
UPDATE `images` SET `expires_at` = `created_at` + 2592000000 WHERE `expires_at` IS NULL AND `img_id` LIKE 'upload:%';
