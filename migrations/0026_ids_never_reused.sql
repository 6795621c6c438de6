-- Ids are never reused (issue 37, docs/decisions/0048). A plain INTEGER PRIMARY KEY takes the
-- highest id plus one, so after the newest row was deleted the next row got its id, and whatever
-- still named the old one (a moderation decision, a report, the audit log, a ledger reference)
-- then named the new one: a new photo could never be decided. Every table whose ids other rows,
-- decisions or records refer to is rebuilt with AUTOINCREMENT, its sequence started above every id
-- still named anywhere, so no new row takes an id a record of a deleted one holds.
--
-- D1 keeps foreign keys on, and dropping a table deletes its rows first, which would run ON DELETE
-- CASCADE into every child table. So each table is copied aside, its ids are turned negative (no
-- child names a negative id: nothing cascades, the children only count as unmet until the end of
-- the migration), the old table is dropped and created again with AUTOINCREMENT, and the rows go
-- back under their own ids, which meets the children again. Indexes and triggers of the table are
-- created again as they were.
PRAGMA defer_foreign_keys = on;

-- users
CREATE TABLE `__copy_users` AS SELECT * FROM `users`;
UPDATE `users` SET `id` = -`id`;
DROP TABLE `users`;
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
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
, `username_key` text, `restricted_at` integer, `confirmed_at` integer, `verified_only` integer DEFAULT 0 NOT NULL);
INSERT INTO `users` (`id`, `email`, `username`, `password_hash`, `status`, `credits`, `paid_user`, `language`, `site_domain`, `invisible`, `signup_date`, `terms_accepted_at`, `terms_version`, `deletion_requested_at`, `network`, `ref`, `sub1`, `sub2`, `sub3`, `last_active_at`, `username_key`, `restricted_at`, `confirmed_at`, `verified_only`) SELECT `id`, `email`, `username`, `password_hash`, `status`, `credits`, `paid_user`, `language`, `site_domain`, `invisible`, `signup_date`, `terms_accepted_at`, `terms_version`, `deletion_requested_at`, `network`, `ref`, `sub1`, `sub2`, `sub3`, `last_active_at`, `username_key`, `restricted_at`, `confirmed_at`, `verified_only` FROM `__copy_users` ORDER BY `id`;
DROP TABLE `__copy_users`;
CREATE UNIQUE INDEX `users_email_idx` ON `users` (`email`);
CREATE INDEX `users_status_idx` ON `users` (`status`,`deletion_requested_at`);
CREATE UNIQUE INDEX `users_username_key_idx` ON `users` (`username_key`);
CREATE TRIGGER `users_credits_cover_holds` BEFORE UPDATE OF `credits` ON `users`
WHEN NEW.`credits` < (SELECT COALESCE(SUM(`credits`), 0) FROM `chat_credit_holds` WHERE `user_id` = NEW.`id`)
BEGIN
	SELECT RAISE(ABORT, 'insufficient_credits');
END;
CREATE TRIGGER `users_credits_not_negative` BEFORE UPDATE OF `credits` ON `users`
WHEN NEW.`credits` < 0
BEGIN
	SELECT RAISE(ABORT, 'insufficient_credits');
END;
INSERT INTO `sqlite_sequence` (`name`, `seq`) SELECT 'users', 0 WHERE NOT EXISTS (SELECT 1 FROM `sqlite_sequence` WHERE `name` = 'users');
UPDATE `sqlite_sequence` SET `seq` = MAX(COALESCE((SELECT MAX(`id`) FROM `users`), 0), COALESCE((SELECT MAX(CAST(substr(`reporter_key`, 6) AS INTEGER)) FROM `reports` WHERE `reporter_key` LIKE 'user:%'), 0), COALESCE((SELECT MAX(CAST(`target_id` AS INTEGER)) FROM `audit_log` WHERE `target_kind` = 'member'), 0), 0) WHERE `name` = 'users';

-- profiles
CREATE TABLE `__copy_profiles` AS SELECT * FROM `profiles`;
UPDATE `profiles` SET `id` = -`id`;
DROP TABLE `profiles`;
CREATE TABLE `profiles` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
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
	`created_at` integer DEFAULT (unixepoch()) NOT NULL, `has_photo` integer DEFAULT 0 NOT NULL, `verified` integer DEFAULT 0 NOT NULL, `verified_photo_id` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`region_id`) REFERENCES `regions`(`id`) ON UPDATE no action ON DELETE no action
);
INSERT INTO `profiles` (`id`, `user_id`, `name`, `country`, `gender`, `sexuality`, `birth_date`, `tattoos`, `hair_color`, `eye_color`, `body_type`, `relationship_status`, `region_id`, `city`, `about_me`, `main_photo_id`, `status`, `fictional`, `searchable`, `last_active_at`, `created_at`, `has_photo`, `verified`, `verified_photo_id`) SELECT `id`, `user_id`, `name`, `country`, `gender`, `sexuality`, `birth_date`, `tattoos`, `hair_color`, `eye_color`, `body_type`, `relationship_status`, `region_id`, `city`, `about_me`, `main_photo_id`, `status`, `fictional`, `searchable`, `last_active_at`, `created_at`, `has_photo`, `verified`, `verified_photo_id` FROM `__copy_profiles` ORDER BY `id`;
DROP TABLE `__copy_profiles`;
CREATE INDEX `profiles_search_any_gender_idx` ON `profiles` (`country`,`searchable`,`has_photo`,`last_active_at`);
CREATE INDEX `profiles_search_idx` ON `profiles` (`country`,`searchable`,`gender`,`has_photo`,`last_active_at`);
CREATE INDEX `profiles_search_region_idx` ON `profiles` (`region_id`,`searchable`,`gender`,`has_photo`,`last_active_at`);
CREATE UNIQUE INDEX `profiles_user_idx` ON `profiles` (`user_id`);
CREATE TRIGGER `profiles_has_photo_main` AFTER UPDATE OF `main_photo_id` ON `profiles`
BEGIN
	UPDATE `profiles` SET `has_photo` = EXISTS (SELECT 1 FROM `photos` WHERE `id` = NEW.`main_photo_id` AND `status` = 'active')
	WHERE `id` = NEW.`id` AND `has_photo` != EXISTS (SELECT 1 FROM `photos` WHERE `id` = NEW.`main_photo_id` AND `status` = 'active');
END;
INSERT INTO `sqlite_sequence` (`name`, `seq`) SELECT 'profiles', 0 WHERE NOT EXISTS (SELECT 1 FROM `sqlite_sequence` WHERE `name` = 'profiles');
UPDATE `sqlite_sequence` SET `seq` = MAX(COALESCE((SELECT MAX(`id`) FROM `profiles`), 0), COALESCE((SELECT MAX(`profile_id`) FROM `reports`), 0), COALESCE((SELECT MAX(CAST(substr(`target_key`, 9) AS INTEGER)) FROM `reports` WHERE `target_key` LIKE 'profile:%'), 0), COALESCE((SELECT MAX(`profile_id`) FROM `moderation_decisions`), 0), COALESCE((SELECT MAX(MAX(COALESCE(`profile_a`, 0)), MAX(COALESCE(`profile_b`, 0))) FROM `conversations`), 0), 0) WHERE `name` = 'profiles';

-- photos
CREATE TABLE `__copy_photos` AS SELECT * FROM `photos`;
UPDATE `photos` SET `id` = -`id`;
DROP TABLE `photos`;
CREATE TABLE `photos` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
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
INSERT INTO `photos` (`id`, `profile_id`, `key`, `thumb_key`, `blur_key`, `status`, `position`, `width`, `height`, `created_at`) SELECT `id`, `profile_id`, `key`, `thumb_key`, `blur_key`, `status`, `position`, `width`, `height`, `created_at` FROM `__copy_photos` ORDER BY `id`;
DROP TABLE `__copy_photos`;
CREATE UNIQUE INDEX `photos_blur_key_idx` ON `photos` (`blur_key`);
CREATE UNIQUE INDEX `photos_key_idx` ON `photos` (`key`);
CREATE INDEX `photos_profile_idx` ON `photos` (`profile_id`,`position`);
CREATE UNIQUE INDEX `photos_thumb_key_idx` ON `photos` (`thumb_key`);
CREATE INDEX `photos_waiting_idx` ON `photos` (`created_at`,`id`) WHERE status = 'pending';
CREATE TRIGGER `photos_has_photo_delete` AFTER DELETE ON `photos`
WHEN OLD.`status` = 'active'
BEGIN
	UPDATE `profiles` SET `has_photo` = 0 WHERE `id` = OLD.`profile_id` AND `main_photo_id` = OLD.`id`;
END;
CREATE TRIGGER `photos_has_photo_insert` AFTER INSERT ON `photos`
WHEN NEW.`status` = 'active'
BEGIN
	UPDATE `profiles` SET `has_photo` = 1 WHERE `id` = NEW.`profile_id` AND `main_photo_id` = NEW.`id`;
END;
CREATE TRIGGER `photos_has_photo_status` AFTER UPDATE OF `status` ON `photos`
WHEN (OLD.`status` = 'active') != (NEW.`status` = 'active')
BEGIN
	UPDATE `profiles` SET `has_photo` = (NEW.`status` = 'active') WHERE `id` = NEW.`profile_id` AND `main_photo_id` = NEW.`id`;
END;
INSERT INTO `sqlite_sequence` (`name`, `seq`) SELECT 'photos', 0 WHERE NOT EXISTS (SELECT 1 FROM `sqlite_sequence` WHERE `name` = 'photos');
UPDATE `sqlite_sequence` SET `seq` = MAX(COALESCE((SELECT MAX(`id`) FROM `photos`), 0), COALESCE((SELECT MAX(`photo_id`) FROM `moderation_decisions`), 0), COALESCE((SELECT MAX(`photo_id`) FROM `verifications`), 0), COALESCE((SELECT MAX(MAX(COALESCE(`main_photo_id`, 0)), MAX(COALESCE(`verified_photo_id`, 0))) FROM `profiles`), 0), COALESCE((SELECT MAX(CAST(`target_id` AS INTEGER)) FROM `audit_log` WHERE `target_kind` = 'photo'), 0), 0) WHERE `name` = 'photos';

-- chat_photos
CREATE TABLE `__copy_chat_photos` AS SELECT * FROM `chat_photos`;
UPDATE `chat_photos` SET `id` = -`id`;
DROP TABLE `chat_photos`;
CREATE TABLE `chat_photos` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`profile_id` integer NOT NULL,
	`key` text NOT NULL,
	`thumb_key` text NOT NULL,
	`blur_key` text NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL, `sent_in_conversation_id` integer,
	FOREIGN KEY (`profile_id`) REFERENCES `profiles`(`id`) ON UPDATE no action ON DELETE cascade
);
INSERT INTO `chat_photos` (`id`, `profile_id`, `key`, `thumb_key`, `blur_key`, `width`, `height`, `created_at`, `sent_in_conversation_id`) SELECT `id`, `profile_id`, `key`, `thumb_key`, `blur_key`, `width`, `height`, `created_at`, `sent_in_conversation_id` FROM `__copy_chat_photos` ORDER BY `id`;
DROP TABLE `__copy_chat_photos`;
CREATE UNIQUE INDEX `chat_photos_blur_key_idx` ON `chat_photos` (`blur_key`);
CREATE UNIQUE INDEX `chat_photos_key_idx` ON `chat_photos` (`key`);
CREATE INDEX `chat_photos_profile_idx` ON `chat_photos` (`profile_id`);
CREATE UNIQUE INDEX `chat_photos_thumb_key_idx` ON `chat_photos` (`thumb_key`);
INSERT INTO `sqlite_sequence` (`name`, `seq`) SELECT 'chat_photos', 0 WHERE NOT EXISTS (SELECT 1 FROM `sqlite_sequence` WHERE `name` = 'chat_photos');
UPDATE `sqlite_sequence` SET `seq` = MAX(COALESCE((SELECT MAX(`id`) FROM `chat_photos`), 0), 0) WHERE `name` = 'chat_photos';

-- conversations
CREATE TABLE `__copy_conversations` AS SELECT * FROM `conversations`;
UPDATE `conversations` SET `id` = -`id`;
DROP TABLE `conversations`;
CREATE TABLE `conversations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`last_message_at` integer,
	`last_message_id` integer
, `profile_a` integer, `profile_b` integer, `started_by` integer, `last_message_sender_id` integer, `last_message_kind` text, `last_message_preview` text, `last_message_write` text);
INSERT INTO `conversations` (`id`, `created_at`, `last_message_at`, `last_message_id`, `profile_a`, `profile_b`, `started_by`, `last_message_sender_id`, `last_message_kind`, `last_message_preview`, `last_message_write`) SELECT `id`, `created_at`, `last_message_at`, `last_message_id`, `profile_a`, `profile_b`, `started_by`, `last_message_sender_id`, `last_message_kind`, `last_message_preview`, `last_message_write` FROM `__copy_conversations` ORDER BY `id`;
DROP TABLE `__copy_conversations`;
CREATE UNIQUE INDEX `conversations_pair_idx` ON `conversations` (`profile_a`,`profile_b`);
CREATE TRIGGER `conversations_message_once` BEFORE UPDATE OF `last_message_id` ON `conversations`
WHEN NEW.`last_message_id` <= COALESCE(OLD.`last_message_id`, 0)
BEGIN
	SELECT RAISE(ABORT, 'message_already_recorded');
END;
CREATE TRIGGER `conversations_send_allowed` BEFORE UPDATE OF `last_message_id` ON `conversations`
WHEN NEW.`last_message_id` IS NULL
BEGIN
	SELECT RAISE(ABORT, 'chat_standing_changed');
END;
INSERT INTO `sqlite_sequence` (`name`, `seq`) SELECT 'conversations', 0 WHERE NOT EXISTS (SELECT 1 FROM `sqlite_sequence` WHERE `name` = 'conversations');
UPDATE `sqlite_sequence` SET `seq` = MAX(COALESCE((SELECT MAX(`id`) FROM `conversations`), 0), COALESCE((SELECT MAX(`conversation_id`) FROM `chat_credit_holds`), 0), COALESCE((SELECT MAX(CAST(substr(`ref`, 6) AS INTEGER)) FROM `credit_ledger` WHERE `ref` LIKE 'chat:%'), 0), 0) WHERE `name` = 'conversations';

-- orders
CREATE TABLE `__copy_orders` AS SELECT * FROM `orders`;
UPDATE `orders` SET `id` = -`id`;
DROP TABLE `orders`;
CREATE TABLE "orders" (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
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
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL, `discount_code` text, `discount_key` text, `idempotency_key` text, `paid_method` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
INSERT INTO `orders` (`id`, `user_id`, `site_domain`, `bundle_id`, `credits`, `amount_cents`, `vat_cents`, `discount_cents`, `currency`, `discount_code_id`, `payment_method`, `country`, `status`, `credited_at`, `refunded_at`, `refunded_credits`, `refunded_cents`, `created_at`, `updated_at`, `discount_code`, `discount_key`, `idempotency_key`, `paid_method`) SELECT `id`, `user_id`, `site_domain`, `bundle_id`, `credits`, `amount_cents`, `vat_cents`, `discount_cents`, `currency`, `discount_code_id`, `payment_method`, `country`, `status`, `credited_at`, `refunded_at`, `refunded_credits`, `refunded_cents`, `created_at`, `updated_at`, `discount_code`, `discount_key`, `idempotency_key`, `paid_method` FROM `__copy_orders` ORDER BY `id`;
DROP TABLE `__copy_orders`;
CREATE INDEX `orders_user_idx` ON `orders` (`user_id`,`created_at`);
INSERT INTO `sqlite_sequence` (`name`, `seq`) SELECT 'orders', 0 WHERE NOT EXISTS (SELECT 1 FROM `sqlite_sequence` WHERE `name` = 'orders');
UPDATE `sqlite_sequence` SET `seq` = MAX(COALESCE((SELECT MAX(`id`) FROM `orders`), 0), COALESCE((SELECT MAX(CAST(substr(`ref`, 7) AS INTEGER)) FROM `credit_ledger` WHERE `ref` LIKE 'order:%'), 0), COALESCE((SELECT MAX(`order_id`) FROM `discount_uses`), 0), COALESCE((SELECT MAX(`order_id`) FROM `discount_holds`), 0), COALESCE((SELECT MAX(CAST(`target_id` AS INTEGER)) FROM `audit_log` WHERE `target_kind` = 'order'), 0), 0) WHERE `name` = 'orders';

-- discount_codes
CREATE TABLE `__copy_discount_codes` AS SELECT * FROM `discount_codes`;
UPDATE `discount_codes` SET `id` = -`id`;
DROP TABLE `discount_codes`;
CREATE TABLE `discount_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
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
INSERT INTO `discount_codes` (`id`, `code`, `percentage`, `minimum_cents`, `currency`, `country`, `user_id`, `expires_at`, `status`, `validity`, `payment_methods`) SELECT `id`, `code`, `percentage`, `minimum_cents`, `currency`, `country`, `user_id`, `expires_at`, `status`, `validity`, `payment_methods` FROM `__copy_discount_codes` ORDER BY `id`;
DROP TABLE `__copy_discount_codes`;
CREATE INDEX `discount_codes_code_idx` ON `discount_codes` (`code`,`country`);
CREATE INDEX `discount_codes_user_idx` ON `discount_codes` (`user_id`);
INSERT INTO `sqlite_sequence` (`name`, `seq`) SELECT 'discount_codes', 0 WHERE NOT EXISTS (SELECT 1 FROM `sqlite_sequence` WHERE `name` = 'discount_codes');
UPDATE `sqlite_sequence` SET `seq` = MAX(COALESCE((SELECT MAX(`id`) FROM `discount_codes`), 0), COALESCE((SELECT MAX(`discount_code_id`) FROM `orders`), 0), COALESCE((SELECT MAX(CAST(`target_id` AS INTEGER)) FROM `audit_log` WHERE `target_kind` = 'discount'), 0), 0) WHERE `name` = 'discount_codes';

-- reports
CREATE TABLE `__copy_reports` AS SELECT * FROM `reports`;
UPDATE `reports` SET `id` = -`id`;
DROP TABLE `reports`;
CREATE TABLE `reports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
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
INSERT INTO `reports` (`id`, `reporter_key`, `reporter_user_id`, `email`, `subject`, `description`, `target_key`, `profile_id`, `message_id`, `site_domain`, `language`, `client_address`, `status`, `operator_note`, `created_at`, `handled_at`) SELECT `id`, `reporter_key`, `reporter_user_id`, `email`, `subject`, `description`, `target_key`, `profile_id`, `message_id`, `site_domain`, `language`, `client_address`, `status`, `operator_note`, `created_at`, `handled_at` FROM `__copy_reports` ORDER BY `id`;
DROP TABLE `__copy_reports`;
CREATE INDEX `reports_address_idx` ON `reports` (`client_address`,`created_at`);
CREATE UNIQUE INDEX `reports_once_idx` ON `reports` (`reporter_key`,`target_key`);
CREATE INDEX `reports_profile_idx` ON `reports` (`profile_id`);
CREATE INDEX `reports_reporter_idx` ON `reports` (`reporter_key`,`created_at`);
CREATE INDEX `reports_status_idx` ON `reports` (`status`,`created_at`);
INSERT INTO `sqlite_sequence` (`name`, `seq`) SELECT 'reports', 0 WHERE NOT EXISTS (SELECT 1 FROM `sqlite_sequence` WHERE `name` = 'reports');
UPDATE `sqlite_sequence` SET `seq` = MAX(COALESCE((SELECT MAX(`id`) FROM `reports`), 0), COALESCE((SELECT MAX(`report_id`) FROM `moderation_decisions`), 0), COALESCE((SELECT MAX(CAST(`target_id` AS INTEGER)) FROM `audit_log` WHERE `target_kind` = 'report'), 0), 0) WHERE `name` = 'reports';

-- moderation_decisions
CREATE TABLE `__copy_moderation_decisions` AS SELECT * FROM `moderation_decisions`;
UPDATE `moderation_decisions` SET `id` = -`id`;
DROP TABLE `moderation_decisions`;
CREATE TABLE `moderation_decisions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer,
	`profile_id` integer,
	`source` text NOT NULL,
	`photo_id` integer,
	`report_id` integer,
	`appeal_id` integer,
	`outcome` text NOT NULL,
	`ground` text,
	`facts` text,
	`restricts` integer DEFAULT 0 NOT NULL,
	`automated` integer DEFAULT 0 NOT NULL,
	`language` text NOT NULL,
	`operator_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	`appeal_until` integer,
	`detached_photo_id` integer,
	`detached_report_id` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action
);
INSERT INTO `moderation_decisions` (`id`, `user_id`, `profile_id`, `source`, `photo_id`, `report_id`, `appeal_id`, `outcome`, `ground`, `facts`, `restricts`, `automated`, `language`, `operator_id`, `created_at`, `appeal_until`) SELECT `id`, `user_id`, `profile_id`, `source`, `photo_id`, `report_id`, `appeal_id`, `outcome`, `ground`, `facts`, `restricts`, `automated`, `language`, `operator_id`, `created_at`, `appeal_until` FROM `__copy_moderation_decisions` ORDER BY `id`;
DROP TABLE `__copy_moderation_decisions`;
CREATE UNIQUE INDEX `moderation_decisions_appeal_idx` ON `moderation_decisions` (`appeal_id`) WHERE appeal_id IS NOT NULL;
CREATE UNIQUE INDEX `moderation_decisions_photo_idx` ON `moderation_decisions` (`photo_id`) WHERE photo_id IS NOT NULL;
CREATE INDEX `moderation_decisions_profile_idx` ON `moderation_decisions` (`profile_id`,`id`);
CREATE UNIQUE INDEX `moderation_decisions_report_idx` ON `moderation_decisions` (`report_id`) WHERE report_id IS NOT NULL;
CREATE INDEX `moderation_decisions_user_idx` ON `moderation_decisions` (`user_id`,`id`);
INSERT INTO `sqlite_sequence` (`name`, `seq`) SELECT 'moderation_decisions', 0 WHERE NOT EXISTS (SELECT 1 FROM `sqlite_sequence` WHERE `name` = 'moderation_decisions');
UPDATE `sqlite_sequence` SET `seq` = MAX(COALESCE((SELECT MAX(`id`) FROM `moderation_decisions`), 0), COALESCE((SELECT MAX(`decision_id`) FROM `appeals`), 0), 0) WHERE `name` = 'moderation_decisions';

-- appeals
CREATE TABLE `__copy_appeals` AS SELECT * FROM `appeals`;
UPDATE `appeals` SET `id` = -`id`;
DROP TABLE `appeals`;
CREATE TABLE `appeals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`decision_id` integer NOT NULL,
	`user_id` integer,
	`text` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`created_at` integer NOT NULL,
	`decided_by` integer,
	`decided_at` integer,
	`note` text,
	FOREIGN KEY (`decision_id`) REFERENCES `moderation_decisions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`decided_by`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action
);
INSERT INTO `appeals` (`id`, `decision_id`, `user_id`, `text`, `status`, `created_at`, `decided_by`, `decided_at`, `note`) SELECT `id`, `decision_id`, `user_id`, `text`, `status`, `created_at`, `decided_by`, `decided_at`, `note` FROM `__copy_appeals` ORDER BY `id`;
DROP TABLE `__copy_appeals`;
CREATE UNIQUE INDEX `appeals_decision_idx` ON `appeals` (`decision_id`);
CREATE INDEX `appeals_status_idx` ON `appeals` (`status`,`created_at`);
INSERT INTO `sqlite_sequence` (`name`, `seq`) SELECT 'appeals', 0 WHERE NOT EXISTS (SELECT 1 FROM `sqlite_sequence` WHERE `name` = 'appeals');
UPDATE `sqlite_sequence` SET `seq` = MAX(COALESCE((SELECT MAX(`id`) FROM `appeals`), 0), COALESCE((SELECT MAX(`appeal_id`) FROM `moderation_decisions`), 0), COALESCE((SELECT MAX(CAST(`target_id` AS INTEGER)) FROM `audit_log` WHERE `target_kind` = 'appeal'), 0), 0) WHERE `name` = 'appeals';

-- verifications
CREATE TABLE `__copy_verifications` AS SELECT * FROM `verifications`;
UPDATE `verifications` SET `id` = -`id`;
DROP TABLE `verifications`;
CREATE TABLE `verifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`profile_id` integer NOT NULL,
	`site_domain` text NOT NULL,
	`kind` text DEFAULT 'selfie' NOT NULL,
	`pose` text NOT NULL,
	`selfie_key` text,
	`photo_id` integer,
	`status` text DEFAULT 'pending' NOT NULL,
	`reason` text,
	`asked_at` integer NOT NULL,
	`decided_at` integer,
	`decided_by` text,
	FOREIGN KEY (`profile_id`) REFERENCES `profiles`(`id`) ON UPDATE no action ON DELETE cascade
);
INSERT INTO `verifications` (`id`, `profile_id`, `site_domain`, `kind`, `pose`, `selfie_key`, `photo_id`, `status`, `reason`, `asked_at`, `decided_at`, `decided_by`) SELECT `id`, `profile_id`, `site_domain`, `kind`, `pose`, `selfie_key`, `photo_id`, `status`, `reason`, `asked_at`, `decided_at`, `decided_by` FROM `__copy_verifications` ORDER BY `id`;
DROP TABLE `__copy_verifications`;
CREATE INDEX `verifications_decided_idx` ON `verifications` (`decided_at`);
CREATE INDEX `verifications_profile_idx` ON `verifications` (`profile_id`,`asked_at`);
CREATE INDEX `verifications_queue_idx` ON `verifications` (`status`,`asked_at`);
CREATE INDEX `verifications_site_idx` ON `verifications` (`site_domain`,`asked_at`);
CREATE UNIQUE INDEX `verifications_waiting_idx` ON `verifications` (`profile_id`) WHERE `status` = 'pending';
INSERT INTO `sqlite_sequence` (`name`, `seq`) SELECT 'verifications', 0 WHERE NOT EXISTS (SELECT 1 FROM `sqlite_sequence` WHERE `name` = 'verifications');
UPDATE `sqlite_sequence` SET `seq` = MAX(COALESCE((SELECT MAX(`id`) FROM `verifications`), 0), COALESCE((SELECT MAX(CAST(`target_id` AS INTEGER)) FROM `audit_log` WHERE `target_kind` = 'verification'), 0), 0) WHERE `name` = 'verifications';

-- operators
CREATE TABLE `__copy_operators` AS SELECT * FROM `operators`;
UPDATE `operators` SET `id` = -`id`;
DROP TABLE `operators`;
CREATE TABLE `operators` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL
);
INSERT INTO `operators` (`id`, `email`, `status`, `created_at`) SELECT `id`, `email`, `status`, `created_at` FROM `__copy_operators` ORDER BY `id`;
DROP TABLE `__copy_operators`;
CREATE UNIQUE INDEX `operators_email_idx` ON `operators` (`email`);
INSERT INTO `sqlite_sequence` (`name`, `seq`) SELECT 'operators', 0 WHERE NOT EXISTS (SELECT 1 FROM `sqlite_sequence` WHERE `name` = 'operators');
UPDATE `sqlite_sequence` SET `seq` = MAX(COALESCE((SELECT MAX(`id`) FROM `operators`), 0), COALESCE((SELECT MAX(`operator_id`) FROM `audit_log`), 0), COALESCE((SELECT MAX(CAST(`target_id` AS INTEGER)) FROM `audit_log` WHERE `target_kind` = 'operator'), 0), 0) WHERE `name` = 'operators';
-- A decision that holds the id of a photo or report which a later one took (before ids were never
-- reused) is about the earlier one: it is detached, its id kept in `detached_photo_id` or
-- `detached_report_id` (new columns of the rebuilt table), so the statement of reasons stays as the
-- member read it and the new photo or report can be decided. A waiting photo or an open report has
-- no decision of its own (deciding it settles it in the same batch), nor has one older than itself
-- or of another member. A decision of a photo deleted since keeps its id: no new photo takes it.
UPDATE `moderation_decisions` SET `detached_photo_id` = `photo_id`, `photo_id` = NULL
WHERE `photo_id` IN (
	SELECT p.`id` FROM `photos` p WHERE p.`id` = `moderation_decisions`.`photo_id`
	AND (p.`status` = 'pending' OR p.`profile_id` IS NOT `moderation_decisions`.`profile_id` OR p.`created_at` > `moderation_decisions`.`created_at`)
);
UPDATE `moderation_decisions` SET `detached_report_id` = `report_id`, `report_id` = NULL
WHERE `report_id` IN (
	SELECT r.`id` FROM `reports` r WHERE r.`id` = `moderation_decisions`.`report_id`
	AND (r.`status` = 'open' OR r.`created_at` > `moderation_decisions`.`created_at`)
);

PRAGMA defer_foreign_keys = off;
