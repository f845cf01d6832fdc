CREATE TABLE `app_switches` (
	`shop_id` integer NOT NULL,
	`name` text NOT NULL,
	`st` integer DEFAULT 0 NOT NULL,
	`at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`exp` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`shop_id`, `name`),
	FOREIGN KEY (`shop_id`) REFERENCES `shops`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `catalogue_syncs` (
	`shop_id` integer PRIMARY KEY NOT NULL,
	`status` text DEFAULT 'idle' NOT NULL,
	`image_count` integer DEFAULT 0 NOT NULL,
	`bulk_operation_id` text,
	`error` text,
	`started_at` integer,
	`finished_at` integer,
	FOREIGN KEY (`shop_id`) REFERENCES `shops`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `contact_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`shop_id` integer NOT NULL,
	`kind` text DEFAULT 'contact' NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`email` text DEFAULT '' NOT NULL,
	`title` text DEFAULT '' NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`path` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`shop_id`) REFERENCES `shops`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contact_shop_idx` ON `contact_messages` (`shop_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `image_settings` (
	`shop_id` integer PRIMARY KEY NOT NULL,
	`is_default` integer DEFAULT 1 NOT NULL,
	`auto_switch` integer DEFAULT 0 NOT NULL,
	`image_opt` text NOT NULL,
	`alt_text` text NOT NULL,
	`file_name` text NOT NULL,
	`watermark_key` text,
	`day_backup` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`shop_id`) REFERENCES `shops`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `images` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`shop_id` integer NOT NULL,
	`opt_id` integer NOT NULL,
	`img_id` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`src` text DEFAULT '' NOT NULL,
	`alt` text DEFAULT '' NOT NULL,
	`file_name` text DEFAULT '' NOT NULL,
	`file_type` text DEFAULT '' NOT NULL,
	`width` integer DEFAULT 0 NOT NULL,
	`height` integer DEFAULT 0 NOT NULL,
	`img_size` integer DEFAULT 0 NOT NULL,
	`comp_size` integer DEFAULT 0 NOT NULL,
	`comp_ratio` real DEFAULT 0 NOT NULL,
	`before_file_path` text,
	`after_file_path` text,
	`original_sha256` text,
	`result_sha256` text,
	`original_alt` text,
	`original_file_name` text,
	`is_compress` integer DEFAULT 0 NOT NULL,
	`is_to_jpg` integer DEFAULT 0 NOT NULL,
	`is_edit_alt` integer DEFAULT 0 NOT NULL,
	`is_edit_name` integer DEFAULT 0 NOT NULL,
	`is_watermark` integer DEFAULT 0 NOT NULL,
	`is_restore` integer DEFAULT 0 NOT NULL,
	`is_overdue` integer DEFAULT 0 NOT NULL,
	`is_delete` integer DEFAULT 0 NOT NULL,
	`is_download` integer DEFAULT 0 NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`fail_reason` text,
	`step` text,
	`optimised_at` integer,
	`expires_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`shop_id`) REFERENCES `shops`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`opt_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `images_shop_img_uq` ON `images` (`shop_id`,`img_id`);--> statement-breakpoint
CREATE INDEX `images_shop_opt_idx` ON `images` (`shop_id`,`opt_id`,`position`);--> statement-breakpoint
CREATE INDEX `images_shop_status_idx` ON `images` (`shop_id`,`status`);--> statement-breakpoint
CREATE INDEX `images_expires_idx` ON `images` (`expires_at`);--> statement-breakpoint
CREATE TABLE `items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`shop_id` integer NOT NULL,
	`data_type` integer NOT NULL,
	`resource_id` text NOT NULL,
	`blog_id` text,
	`title` text DEFAULT '' NOT NULL,
	`handle` text DEFAULT '' NOT NULL,
	`image` text DEFAULT '' NOT NULL,
	`vendor` text DEFAULT '' NOT NULL,
	`product_type` text DEFAULT '' NOT NULL,
	`price` text DEFAULT '' NOT NULL,
	`variant` text DEFAULT '' NOT NULL,
	`blog_title` text DEFAULT '' NOT NULL,
	`resource_status` text DEFAULT '' NOT NULL,
	`is_published` integer DEFAULT 1 NOT NULL,
	`is_delete` integer DEFAULT 0 NOT NULL,
	`opt_status` integer DEFAULT 0 NOT NULL,
	`status` text DEFAULT '' NOT NULL,
	`pattern` text DEFAULT '' NOT NULL,
	`comp_ratio` real DEFAULT 0 NOT NULL,
	`image_count` integer DEFAULT 0 NOT NULL,
	`optimised_at` integer,
	`resource_updated_at` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`shop_id`) REFERENCES `shops`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `items_shop_type_resource_uq` ON `items` (`shop_id`,`data_type`,`resource_id`);--> statement-breakpoint
CREATE INDEX `items_shop_type_updated_idx` ON `items` (`shop_id`,`data_type`,`updated_at`);--> statement-breakpoint
CREATE INDEX `items_shop_type_title_idx` ON `items` (`shop_id`,`data_type`,`title`);--> statement-breakpoint
CREATE TABLE `job_images` (
	`job_id` text NOT NULL,
	`image_id` integer NOT NULL,
	`opt_id` integer NOT NULL,
	`shop_id` integer NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`error` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`job_id`, `image_id`),
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`image_id`) REFERENCES `images`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `job_images_shop_status_idx` ON `job_images` (`shop_id`,`status`);--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`shop_id` integer NOT NULL,
	`data_type` integer NOT NULL,
	`process_type` text NOT NULL,
	`page_type` integer DEFAULT 0 NOT NULL,
	`pattern` text DEFAULT 'manual' NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`shop_id`) REFERENCES `shops`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `jobs_shop_status_idx` ON `jobs` (`shop_id`,`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `oauth_states` (
	`state` text PRIMARY KEY NOT NULL,
	`shop_domain` text NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `pagespeed_scores` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`shop_id` integer NOT NULL,
	`url` text DEFAULT '' NOT NULL,
	`status` integer DEFAULT 2 NOT NULL,
	`desktop` integer,
	`mobile` integer,
	`error` text,
	`requested_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`completed_at` integer,
	FOREIGN KEY (`shop_id`) REFERENCES `shops`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `pagespeed_shop_requested_idx` ON `pagespeed_scores` (`shop_id`,`requested_at`);--> statement-breakpoint
CREATE TABLE `processed_webhooks` (
	`webhook_id` text PRIMARY KEY NOT NULL,
	`shop_domain` text NOT NULL,
	`topic` text NOT NULL,
	`received_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `processed_webhooks_received_idx` ON `processed_webhooks` (`received_at`);--> statement-breakpoint
CREATE TABLE `review_scores` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`shop_id` integer NOT NULL,
	`score` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`shop_id`) REFERENCES `shops`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `review_shop_idx` ON `review_scores` (`shop_id`);--> statement-breakpoint
CREATE TABLE `shops` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`domain` text NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`owner_name` text DEFAULT '' NOT NULL,
	`email` text DEFAULT '' NOT NULL,
	`primary_domain` text DEFAULT '' NOT NULL,
	`currency_code` text DEFAULT 'USD' NOT NULL,
	`shopify_plan` text DEFAULT '' NOT NULL,
	`is_development_store` integer DEFAULT 0 NOT NULL,
	`plan_level` integer DEFAULT 0 NOT NULL,
	`language` text DEFAULT 'en' NOT NULL,
	`review_tips` integer DEFAULT 1 NOT NULL,
	`review_score` integer,
	`new_guide_status` integer DEFAULT 1 NOT NULL,
	`is_old` integer DEFAULT 0 NOT NULL,
	`is_over_quota` integer DEFAULT 0 NOT NULL,
	`is_capped` integer DEFAULT 0 NOT NULL,
	`capped_amount_cents` integer DEFAULT 0 NOT NULL,
	`subscription_id` text,
	`subscription_status` text,
	`usage_line_item_id` text,
	`pending_plan_level` integer,
	`billing_cycle_day` integer DEFAULT 1 NOT NULL,
	`quota_period_start` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`discount_expires_at` integer,
	`scopes` text DEFAULT '' NOT NULL,
	`access_token_enc` text,
	`access_token_expires_at` integer,
	`refresh_token_enc` text,
	`refresh_token_expires_at` integer,
	`admin_token_hash` text,
	`admin_token_created_at` integer,
	`installed_at` integer,
	`uninstalled_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `shops_domain_uq` ON `shops` (`domain`);--> statement-breakpoint
CREATE INDEX `shops_admin_token_idx` ON `shops` (`admin_token_hash`);--> statement-breakpoint
CREATE TABLE `usage_charges` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`shop_id` integer NOT NULL,
	`idempotency_key` text NOT NULL,
	`period_start` integer NOT NULL,
	`image_count` integer NOT NULL,
	`amount_cents` integer NOT NULL,
	`usage_record_id` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`shop_id`) REFERENCES `shops`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `usage_charges_key_uq` ON `usage_charges` (`shop_id`,`idempotency_key`);--> statement-breakpoint
CREATE TABLE `usage_ledger` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`shop_id` integer NOT NULL,
	`charge_key` text NOT NULL,
	`image_id` integer,
	`job_id` text,
	`period_start` integer NOT NULL,
	`is_overage` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`shop_id`) REFERENCES `shops`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `usage_ledger_charge_uq` ON `usage_ledger` (`shop_id`,`charge_key`);--> statement-breakpoint
CREATE INDEX `usage_ledger_period_idx` ON `usage_ledger` (`shop_id`,`period_start`);--> statement-breakpoint
CREATE TABLE `user_selections` (
	`shop_id` integer NOT NULL,
	`key` text NOT NULL,
	`value` text DEFAULT '' NOT NULL,
	`clicks` integer DEFAULT 0 NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`shop_id`, `key`),
	FOREIGN KEY (`shop_id`) REFERENCES `shops`(`id`) ON UPDATE no action ON DELETE cascade
);
