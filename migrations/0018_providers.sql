ALTER TABLE `outgoing_sms` ADD `country` text;--> statement-breakpoint
ALTER TABLE `outgoing_sms` ADD `delivery_status` text;--> statement-breakpoint
ALTER TABLE `outgoing_sms` ADD `status_at` integer;--> statement-breakpoint
CREATE INDEX `outgoing_sms_country_idx` ON `outgoing_sms` (`country`,`created_at`);--> statement-breakpoint
CREATE INDEX `outgoing_sms_provider_idx` ON `outgoing_sms` (`provider_id`);--> statement-breakpoint
ALTER TABLE `push_subscriptions` ADD `failures` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `push_subscriptions` ADD `retry_after` integer;--> statement-breakpoint
CREATE TABLE `push_key_mismatches` (
	`public_key` text PRIMARY KEY NOT NULL,
	`first_at` integer NOT NULL
);
