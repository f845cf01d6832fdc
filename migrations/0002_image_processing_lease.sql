ALTER TABLE `images` ADD `lock_job_id` text;--> statement-breakpoint
ALTER TABLE `images` ADD `lock_expires_at` integer;