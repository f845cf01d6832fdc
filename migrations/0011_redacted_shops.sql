CREATE TABLE `redacted_shops` (
	`domain_hash` text PRIMARY KEY NOT NULL,
	`billing_cycle_day` integer NOT NULL,
	`quota_period_start` integer NOT NULL,
	`free_images_used` integer NOT NULL,
	`offer_ends_at` integer NOT NULL,
	`redacted_at` integer NOT NULL
);
