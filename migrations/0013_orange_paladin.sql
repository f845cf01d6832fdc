ALTER TABLE `images` ADD `orig_width` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `images` ADD `orig_height` integer DEFAULT 0 NOT NULL;