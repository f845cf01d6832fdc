CREATE INDEX `images_shop_saved_idx` ON `images` (`shop_id`,`is_compress`,`is_restore`,`img_size`,`comp_size`);--> statement-breakpoint
CREATE INDEX `images_shop_candidate_idx` ON `images` (`shop_id`,`status`,`is_delete`,`is_overdue`,`opt_id`);--> statement-breakpoint
CREATE INDEX `items_shop_type_optimised_idx` ON `items` (`shop_id`,`data_type`,`optimised_at`);