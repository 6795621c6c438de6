ALTER TABLE `orders` ADD `idempotency_key` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `paid_method` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `provider_status` text;--> statement-breakpoint
CREATE TABLE `payment_adjustments` (
	`id` integer PRIMARY KEY NOT NULL,
	`order_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`kind` text NOT NULL,
	`origin` text NOT NULL,
	`provider_id` text,
	`idempotency_key` text,
	`status` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`credits` integer DEFAULT 0 NOT NULL,
	`taken_at` integer,
	`given_back_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_adjustments_provider_idx` ON `payment_adjustments` (`kind`,`provider_id`) WHERE provider_id IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `payment_adjustments_key_idx` ON `payment_adjustments` (`idempotency_key`) WHERE idempotency_key IS NOT NULL;--> statement-breakpoint
CREATE INDEX `payment_adjustments_order_idx` ON `payment_adjustments` (`order_id`);
