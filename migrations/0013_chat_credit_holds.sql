CREATE TABLE `chat_credit_holds` (
	`user_id` integer NOT NULL,
	`conversation_id` integer NOT NULL,
	`credits` integer DEFAULT 0 NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	PRIMARY KEY(`user_id`, `conversation_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `chat_credit_holds_conversation_idx` ON `chat_credit_holds` (`conversation_id`);--> statement-breakpoint
-- hand-written
-- Held credits stay in the balance but belong to their conversation: no other change of the
-- balance may go below what is held (a refund, another conversation's charge).
CREATE TRIGGER `users_credits_cover_holds` BEFORE UPDATE OF `credits` ON `users`
WHEN NEW.`credits` < (SELECT COALESCE(SUM(`credits`), 0) FROM `chat_credit_holds` WHERE `user_id` = NEW.`id`)
BEGIN
	SELECT RAISE(ABORT, 'insufficient_credits');
END;
--> statement-breakpoint
CREATE TRIGGER `chat_credit_holds_covered` AFTER UPDATE OF `credits` ON `chat_credit_holds`
WHEN NEW.`credits` < 0 OR (SELECT `credits` FROM `users` WHERE `id` = NEW.`user_id`) < (SELECT SUM(`credits`) FROM `chat_credit_holds` WHERE `user_id` = NEW.`user_id`)
BEGIN
	SELECT RAISE(ABORT, 'insufficient_credits');
END;
