CREATE TABLE `blocks` (
	`blocker_id` integer NOT NULL,
	`blocked_id` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	PRIMARY KEY(`blocker_id`, `blocked_id`),
	FOREIGN KEY (`blocker_id`) REFERENCES `profiles`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`blocked_id`) REFERENCES `profiles`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `blocks_blocked_idx` ON `blocks` (`blocked_id`);--> statement-breakpoint
CREATE TABLE `conversation_members` (
	`conversation_id` integer NOT NULL,
	`profile_id` integer NOT NULL,
	`unread_count` integer DEFAULT 0 NOT NULL,
	`last_read_message_id` integer,
	`last_message_at` integer,
	`removed_at` integer,
	PRIMARY KEY(`conversation_id`, `profile_id`),
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`profile_id`) REFERENCES `profiles`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `conversation_members_profile_idx` ON `conversation_members` (`profile_id`,`last_message_at`);--> statement-breakpoint
CREATE TABLE `conversations` (
	`id` integer PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`last_message_at` integer,
	`last_message_id` integer
);
--> statement-breakpoint
CREATE TABLE `credit_ledger` (
	`id` integer PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`delta` integer NOT NULL,
	`reason` text NOT NULL,
	`ref` text,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `credit_ledger_user_idx` ON `credit_ledger` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `discount_code_uses` (
	`discount_code_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`order_id` integer,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	PRIMARY KEY(`discount_code_id`, `user_id`),
	FOREIGN KEY (`discount_code_id`) REFERENCES `discount_codes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `discount_codes` (
	`id` integer PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`percentage` integer NOT NULL,
	`minimum_cents` integer DEFAULT 0 NOT NULL,
	`currency` text,
	`country` text,
	`user_id` integer,
	`expires_at` integer,
	`status` text DEFAULT 'active' NOT NULL,
	`validity` text DEFAULT 'once_per_user' NOT NULL,
	`payment_methods` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `discount_codes_code_idx` ON `discount_codes` (`code`,`country`);--> statement-breakpoint
CREATE INDEX `discount_codes_user_idx` ON `discount_codes` (`user_id`);--> statement-breakpoint
CREATE TABLE `interest_names` (
	`interest_id` integer NOT NULL,
	`language` text NOT NULL,
	`name` text NOT NULL,
	PRIMARY KEY(`interest_id`, `language`),
	FOREIGN KEY (`interest_id`) REFERENCES `interests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `interest_names_language_idx` ON `interest_names` (`language`);--> statement-breakpoint
CREATE TABLE `interests` (
	`id` integer PRIMARY KEY NOT NULL,
	`slug` text NOT NULL,
	`sort` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `interests_slug_unique` ON `interests` (`slug`);--> statement-breakpoint
CREATE TABLE `likes` (
	`liker_id` integer NOT NULL,
	`liked_id` integer NOT NULL,
	`is_new` integer DEFAULT true NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	PRIMARY KEY(`liker_id`, `liked_id`),
	FOREIGN KEY (`liker_id`) REFERENCES `profiles`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`liked_id`) REFERENCES `profiles`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `likes_liked_idx` ON `likes` (`liked_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `likes_liker_idx` ON `likes` (`liker_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `login_attempts` (
	`key` text PRIMARY KEY NOT NULL,
	`failures` integer DEFAULT 0 NOT NULL,
	`window_start` integer NOT NULL,
	`blocked_until` integer
);
--> statement-breakpoint
CREATE TABLE `messages` (
	`id` integer PRIMARY KEY NOT NULL,
	`conversation_id` integer NOT NULL,
	`sender_id` integer NOT NULL,
	`client_id` text NOT NULL,
	`kind` text NOT NULL,
	`body` text,
	`photo_id` integer,
	`gift_id` integer,
	`credits_charged` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`sender_id`) REFERENCES `profiles`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `messages_client_idx` ON `messages` (`conversation_id`,`sender_id`,`client_id`);--> statement-breakpoint
CREATE INDEX `messages_conversation_idx` ON `messages` (`conversation_id`,`id`);--> statement-breakpoint
CREATE TABLE `notification_blocks` (
	`user_id` integer NOT NULL,
	`reason` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	PRIMARY KEY(`user_id`, `reason`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `notification_preferences` (
	`user_id` integer NOT NULL,
	`kind` text NOT NULL,
	`enabled` integer NOT NULL,
	PRIMARY KEY(`user_id`, `kind`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `orders` (
	`id` integer PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`credits` integer NOT NULL,
	`amount_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`discount_code_id` integer,
	`payment_method` text NOT NULL,
	`country` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `orders_user_idx` ON `orders` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `outgoing_mail` (
	`id` integer PRIMARY KEY NOT NULL,
	`to_address` text NOT NULL,
	`kind` text NOT NULL,
	`subject` text NOT NULL,
	`text` text NOT NULL,
	`html` text,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`sent_at` integer,
	`provider_id` text
);
--> statement-breakpoint
CREATE INDEX `outgoing_mail_to_idx` ON `outgoing_mail` (`to_address`,`created_at`);--> statement-breakpoint
CREATE TABLE `payments` (
	`id` integer PRIMARY KEY NOT NULL,
	`order_id` integer NOT NULL,
	`provider` text NOT NULL,
	`provider_payment_id` text NOT NULL,
	`status` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payments_provider_idx` ON `payments` (`provider`,`provider_payment_id`);--> statement-breakpoint
CREATE INDEX `payments_order_idx` ON `payments` (`order_id`);--> statement-breakpoint
CREATE TABLE `photos` (
	`id` integer PRIMARY KEY NOT NULL,
	`profile_id` integer NOT NULL,
	`key` text NOT NULL,
	`thumb_key` text NOT NULL,
	`blur_key` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`profile_id`) REFERENCES `profiles`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `photos_key_idx` ON `photos` (`key`);--> statement-breakpoint
CREATE UNIQUE INDEX `photos_thumb_key_idx` ON `photos` (`thumb_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `photos_blur_key_idx` ON `photos` (`blur_key`);--> statement-breakpoint
CREATE INDEX `photos_profile_idx` ON `photos` (`profile_id`,`position`);--> statement-breakpoint
CREATE TABLE `profile_interests` (
	`profile_id` integer NOT NULL,
	`interest_id` integer NOT NULL,
	PRIMARY KEY(`profile_id`, `interest_id`),
	FOREIGN KEY (`profile_id`) REFERENCES `profiles`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`interest_id`) REFERENCES `interests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `profiles` (
	`id` integer PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`name` text NOT NULL,
	`country` text NOT NULL,
	`gender` text NOT NULL,
	`sexuality` text DEFAULT 'hetero' NOT NULL,
	`birth_date` text NOT NULL,
	`tattoos` text,
	`hair_color` text,
	`eye_color` text,
	`body_type` text,
	`relationship_status` text,
	`region_id` integer,
	`city` text,
	`about_me` text,
	`main_photo_id` integer,
	`status` text DEFAULT 'active' NOT NULL,
	`fictional` integer DEFAULT false NOT NULL,
	`searchable` integer DEFAULT 1 NOT NULL,
	`last_active_at` integer DEFAULT (unixepoch()) NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`region_id`) REFERENCES `regions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `profiles_user_idx` ON `profiles` (`user_id`);--> statement-breakpoint
CREATE INDEX `profiles_search_idx` ON `profiles` (`country`,`searchable`,`gender`,`last_active_at`);--> statement-breakpoint
CREATE INDEX `profiles_search_any_gender_idx` ON `profiles` (`country`,`searchable`,`last_active_at`);--> statement-breakpoint
CREATE INDEX `profiles_search_region_idx` ON `profiles` (`region_id`,`searchable`,`gender`,`last_active_at`);--> statement-breakpoint
CREATE TABLE `push_subscriptions` (
	`id` integer PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`endpoint` text NOT NULL,
	`p256dh` text NOT NULL,
	`auth` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `push_subscriptions_endpoint_idx` ON `push_subscriptions` (`endpoint`);--> statement-breakpoint
CREATE INDEX `push_subscriptions_user_idx` ON `push_subscriptions` (`user_id`);--> statement-breakpoint
CREATE TABLE `regions` (
	`id` integer PRIMARY KEY NOT NULL,
	`country` text NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `regions_code_idx` ON `regions` (`code`);--> statement-breakpoint
CREATE INDEX `regions_country_idx` ON `regions` (`country`,`name`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`username` text NOT NULL,
	`password_hash` text,
	`status` text DEFAULT 'not_confirmed' NOT NULL,
	`credits` integer DEFAULT 0 NOT NULL,
	`paid_user` integer DEFAULT false NOT NULL,
	`language` text DEFAULT 'en' NOT NULL,
	`site_domain` text NOT NULL,
	`invisible` integer DEFAULT false NOT NULL,
	`signup_date` integer DEFAULT (unixepoch()) NOT NULL,
	`terms_accepted_at` integer,
	`terms_version` text,
	`deletion_requested_at` integer,
	`network` text,
	`ref` text,
	`sub1` text,
	`sub2` text,
	`sub3` text,
	`last_active_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_idx` ON `users` (`email`);--> statement-breakpoint
CREATE INDEX `users_status_idx` ON `users` (`status`,`deletion_requested_at`);