CREATE TABLE `image_versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`shop_id` integer NOT NULL,
	`image_id` integer NOT NULL,
	`src` text DEFAULT '' NOT NULL,
	`status` text NOT NULL,
	`before_file_path` text,
	`after_file_path` text,
	`original_sha256` text,
	`result_sha256` text,
	`img_size` integer DEFAULT 0 NOT NULL,
	`comp_size` integer DEFAULT 0 NOT NULL,
	`optimised_at` integer,
	`expires_at` integer,
	`retired_at` integer NOT NULL,
	`served_sha256` text,
	FOREIGN KEY (`shop_id`) REFERENCES `shops`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`image_id`) REFERENCES `images`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `image_versions_image_idx` ON `image_versions` (`shop_id`,`image_id`);--> statement-breakpoint
CREATE INDEX `image_versions_expires_idx` ON `image_versions` (`expires_at`);--> statement-breakpoint
ALTER TABLE `images` ADD `original_stored_at` integer;--> statement-breakpoint
ALTER TABLE `images` ADD `check_served` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `images` ADD `note_key` text;--> statement-breakpoint
ALTER TABLE `images` ADD `note_params` text;--> statement-breakpoint
-- Rows optimised before this column existed: their restore date was 30 days after the optimisation.
UPDATE `images` SET `original_stored_at` = `expires_at` - 2592000000 WHERE `expires_at` IS NOT NULL AND `before_file_path` IS NOT NULL;
