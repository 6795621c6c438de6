CREATE TABLE `reports` (
	`id` integer PRIMARY KEY NOT NULL,
	`reporter_key` text NOT NULL,
	`reporter_user_id` integer,
	`email` text NOT NULL,
	`subject` text NOT NULL,
	`description` text NOT NULL,
	`target_key` text,
	`profile_id` integer,
	`message_id` integer,
	`site_domain` text NOT NULL,
	`language` text NOT NULL,
	`client_address` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`operator_note` text,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`handled_at` integer,
	FOREIGN KEY (`reporter_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reports_once_idx` ON `reports` (`reporter_key`,`target_key`);--> statement-breakpoint
CREATE INDEX `reports_reporter_idx` ON `reports` (`reporter_key`,`created_at`);--> statement-breakpoint
CREATE INDEX `reports_address_idx` ON `reports` (`client_address`,`created_at`);--> statement-breakpoint
CREATE INDEX `reports_status_idx` ON `reports` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `reports_profile_idx` ON `reports` (`profile_id`);