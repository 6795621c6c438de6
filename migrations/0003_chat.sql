CREATE TABLE `chat_photos` (
	`id` integer PRIMARY KEY NOT NULL,
	`profile_id` integer NOT NULL,
	`key` text NOT NULL,
	`thumb_key` text NOT NULL,
	`blur_key` text NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`profile_id`) REFERENCES `profiles`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `chat_photos_key_idx` ON `chat_photos` (`key`);--> statement-breakpoint
CREATE UNIQUE INDEX `chat_photos_thumb_key_idx` ON `chat_photos` (`thumb_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `chat_photos_blur_key_idx` ON `chat_photos` (`blur_key`);--> statement-breakpoint
CREATE INDEX `chat_photos_profile_idx` ON `chat_photos` (`profile_id`);--> statement-breakpoint
ALTER TABLE `conversation_members` ADD `hidden_before_id` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `conversations` ADD `profile_a` integer;--> statement-breakpoint
ALTER TABLE `conversations` ADD `profile_b` integer;--> statement-breakpoint
ALTER TABLE `conversations` ADD `started_by` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `conversations_pair_idx` ON `conversations` (`profile_a`,`profile_b`);--> statement-breakpoint
ALTER TABLE `messages` ADD `gift` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `free` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `messages_free_idx` ON `messages` (`sender_id`,`free`,`conversation_id`);--> statement-breakpoint
ALTER TABLE `messages` DROP COLUMN `gift_id`;--> statement-breakpoint
-- No balance goes below zero: an update that would do so aborts, and with it the whole batch it is
-- part of (a message is stored only together with its charge; see services/chat-send.ts).
CREATE TRIGGER `users_credits_not_negative` BEFORE UPDATE OF `credits` ON `users`
WHEN NEW.`credits` < 0
BEGIN
	SELECT RAISE(ABORT, 'insufficient_credits');
END;
