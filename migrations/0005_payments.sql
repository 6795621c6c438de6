CREATE TABLE `direct_debit_accounts` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`account_holder` text NOT NULL,
	`iban` text NOT NULL,
	`street` text NOT NULL,
	`house_number` text NOT NULL,
	`postal_code` text NOT NULL,
	`city` text NOT NULL,
	`mobile` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `outgoing_sms` (
	`id` integer PRIMARY KEY NOT NULL,
	`to_number` text NOT NULL,
	`text` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`sent_at` integer,
	`provider_id` text
);
--> statement-breakpoint
CREATE INDEX `outgoing_sms_to_idx` ON `outgoing_sms` (`to_number`,`created_at`);--> statement-breakpoint
CREATE TABLE `payment_customers` (
	`user_id` integer NOT NULL,
	`provider` text NOT NULL,
	`customer_id` text NOT NULL,
	`mandate_id` text,
	`mandate_method` text,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	PRIMARY KEY(`user_id`, `provider`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `sandbox_payments` (
	`id` text PRIMARY KEY NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`amount_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`method` text,
	`description` text NOT NULL,
	`redirect_url` text NOT NULL,
	`webhook_url` text NOT NULL,
	`customer_id` text,
	`mandate_id` text,
	`sequence_type` text DEFAULT 'oneoff' NOT NULL,
	`refunded_cents` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sms_codes` (
	`id` integer PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`purpose` text NOT NULL,
	`code_hash` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sms_codes_user_idx` ON `sms_codes` (`user_id`,`purpose`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_orders` (
	`id` integer PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`site_domain` text DEFAULT '' NOT NULL,
	`bundle_id` integer DEFAULT 0 NOT NULL,
	`credits` integer NOT NULL,
	`amount_cents` integer NOT NULL,
	`vat_cents` integer DEFAULT 0 NOT NULL,
	`discount_cents` integer DEFAULT 0 NOT NULL,
	`currency` text NOT NULL,
	`discount_code_id` integer,
	`payment_method` text NOT NULL,
	`country` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`credited_at` integer,
	`refunded_at` integer,
	`refunded_credits` integer DEFAULT 0 NOT NULL,
	`refunded_cents` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_orders`("id", "user_id", "site_domain", "bundle_id", "credits", "amount_cents", "vat_cents", "discount_cents", "currency", "discount_code_id", "payment_method", "country", "status", "credited_at", "refunded_at", "refunded_credits", "refunded_cents", "created_at", "updated_at") SELECT "id", "user_id", "site_domain", "bundle_id", "credits", "amount_cents", "vat_cents", "discount_cents", "currency", "discount_code_id", "payment_method", "country", "status", "credited_at", "refunded_at", "refunded_credits", "refunded_cents", "created_at", "updated_at" FROM `orders`;--> statement-breakpoint
DROP TABLE `orders`;--> statement-breakpoint
ALTER TABLE `__new_orders` RENAME TO `orders`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `orders_user_idx` ON `orders` (`user_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `payments` ADD `method` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `sequence_type` text DEFAULT 'oneoff' NOT NULL;--> statement-breakpoint
ALTER TABLE `payments` ADD `checkout_url` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `updated_at` integer DEFAULT (unixepoch()) NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `credit_ledger_reason_ref_idx` ON `credit_ledger` (`reason`,`ref`) WHERE ref IS NOT NULL;