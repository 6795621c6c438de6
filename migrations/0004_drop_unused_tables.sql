DROP TABLE `discount_code_uses`;--> statement-breakpoint
DROP TABLE `notification_blocks`;--> statement-breakpoint
DROP TABLE `notification_preferences`;--> statement-breakpoint
DROP TABLE `push_subscriptions`;