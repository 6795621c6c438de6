CREATE TABLE `discount_uses` (
	`id` integer PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`code` text NOT NULL,
	`order_id` integer NOT NULL,
	`used_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `discount_uses_user_code_idx` ON `discount_uses` (`user_id`,`code`);--> statement-breakpoint
ALTER TABLE `orders` ADD `discount_code` text;