ALTER TABLE `chat_photos` ADD `sent_in_conversation_id` integer;--> statement-breakpoint
ALTER TABLE `conversation_members` ADD `free_messages_used` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `conversations` ADD `last_message_sender_id` integer;--> statement-breakpoint
ALTER TABLE `conversations` ADD `last_message_kind` text;--> statement-breakpoint
ALTER TABLE `conversations` ADD `last_message_preview` text;--> statement-breakpoint
ALTER TABLE `conversations` ADD `last_message_write` text;--> statement-breakpoint
ALTER TABLE `conversations` ADD `messages_moved` integer DEFAULT true NOT NULL;--> statement-breakpoint
-- hand-written
-- Messages move from D1 into each conversation's Durable Object (docs/decisions/0015). What D1
-- keeps about them is filled in here from the messages table, which stays until the move is done.
UPDATE `chat_photos` SET `sent_in_conversation_id` = (
	SELECT m.`conversation_id` FROM `messages` m WHERE m.`photo_id` = `chat_photos`.`id` AND m.`kind` = 'image' ORDER BY m.`id` LIMIT 1
);--> statement-breakpoint
UPDATE `conversation_members` SET `free_messages_used` = (
	SELECT COUNT(*) FROM `messages` m WHERE m.`conversation_id` = `conversation_members`.`conversation_id` AND m.`sender_id` = `conversation_members`.`profile_id` AND m.`free` = 1
);--> statement-breakpoint
UPDATE `conversations` SET
	`last_message_sender_id` = (SELECT m.`sender_id` FROM `messages` m WHERE m.`id` = `conversations`.`last_message_id`),
	`last_message_kind` = (SELECT m.`kind` FROM `messages` m WHERE m.`id` = `conversations`.`last_message_id`),
	`last_message_preview` = (SELECT substr(m.`body`, 1, 140) FROM `messages` m WHERE m.`id` = `conversations`.`last_message_id` AND m.`kind` = 'text'),
	`messages_moved` = NOT EXISTS (SELECT 1 FROM `messages` m WHERE m.`conversation_id` = `conversations`.`id`);--> statement-breakpoint
-- The object numbers its messages; D1 records each one once and in order: recording a message id
-- not above the last one aborts the whole batch, with its charge.
CREATE TRIGGER `conversations_message_once` BEFORE UPDATE OF `last_message_id` ON `conversations`
WHEN NEW.`last_message_id` <= COALESCE(OLD.`last_message_id`, 0)
BEGIN
	SELECT RAISE(ABORT, 'message_already_recorded');
END;
--> statement-breakpoint
-- A send the members' standing no longer allows records no id (db/conversations.ts writes CASE WHEN <standing>
-- THEN <id> END): that aborts the whole batch, so a group of messages is recorded whole or not at all.
CREATE TRIGGER `conversations_send_allowed` BEFORE UPDATE OF `last_message_id` ON `conversations`
WHEN NEW.`last_message_id` IS NULL
BEGIN
	SELECT RAISE(ABORT, 'chat_standing_changed');
END;
