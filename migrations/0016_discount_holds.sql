CREATE TABLE `discount_holds` (
	`id` integer PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`once_key` text NOT NULL,
	`token` text NOT NULL,
	`order_id` integer,
	`held_until` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `discount_holds_user_key_idx` ON `discount_holds` (`user_id`,`once_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `discount_holds_token_idx` ON `discount_holds` (`token`);--> statement-breakpoint
ALTER TABLE `orders` ADD `discount_key` text;--> statement-breakpoint
UPDATE `orders` SET `discount_key` = CASE
	WHEN `discount_code` IN ('TIMEBONUS25', 'WELCOME25') THEN 'first-purchase'
	WHEN `discount_code_id` IS NULL THEN NULL
	WHEN EXISTS (SELECT 1 FROM `discount_codes` d WHERE d.`id` = `orders`.`discount_code_id` AND d.`validity` = 'once_per_user') THEN `discount_code`
	ELSE NULL END
WHERE `discount_code` IS NOT NULL;--> statement-breakpoint
UPDATE OR IGNORE `discount_uses` SET `code` = 'first-purchase' WHERE `code` IN ('TIMEBONUS25', 'WELCOME25');
