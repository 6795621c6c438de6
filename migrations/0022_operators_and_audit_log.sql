-- hand-written
-- The operators' console (docs/decisions/0034): who may use it, with which roles, and the audit log
-- of everything they do. An operator is known by the e-mail address Cloudflare Access vouches for.
CREATE TABLE `operators` (
	`id` integer PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `operators_email_idx` ON `operators` (`email`);--> statement-breakpoint
CREATE TABLE `operator_roles` (
	`operator_id` integer NOT NULL,
	`role` text NOT NULL,
	PRIMARY KEY(`operator_id`, `role`),
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY NOT NULL,
	`operator_id` integer,
	`actor` text NOT NULL,
	`action` text NOT NULL,
	`target_kind` text NOT NULL,
	`target_id` text NOT NULL,
	`before` text,
	`after` text,
	`reason` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `audit_log_operator_idx` ON `audit_log` (`operator_id`,`id`);--> statement-breakpoint
CREATE INDEX `audit_log_target_idx` ON `audit_log` (`target_kind`,`target_id`,`id`);--> statement-breakpoint
-- The log is append-only: no statement may change or remove a row once written.
CREATE TRIGGER `audit_log_no_update` BEFORE UPDATE ON `audit_log`
BEGIN
	SELECT RAISE(ABORT, 'audit_log_append_only');
END;
--> statement-breakpoint
CREATE TRIGGER `audit_log_no_delete` BEFORE DELETE ON `audit_log`
BEGIN
	SELECT RAISE(ABORT, 'audit_log_append_only');
END;
--> statement-breakpoint
-- Moderation (docs/decisions/0035): every decision an operator takes about a photo, a report or an
-- appeal. A decision that restricts a member is their statement of reasons (DSA Art. 17): it keeps
-- the facts, the rule of the terms (`ground`), whether it was automated and until when it can be
-- appealed, in the member's language.
ALTER TABLE `users` ADD `restricted_at` integer;--> statement-breakpoint
-- The photo queue reads the waiting photos oldest first: an index of those alone.
CREATE INDEX `photos_waiting_idx` ON `photos` (`created_at`,`id`) WHERE status = 'pending';--> statement-breakpoint
CREATE TABLE `moderation_decisions` (
	`id` integer PRIMARY KEY NOT NULL,
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
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `moderation_decisions_user_idx` ON `moderation_decisions` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `moderation_decisions_profile_idx` ON `moderation_decisions` (`profile_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `moderation_decisions_photo_idx` ON `moderation_decisions` (`photo_id`) WHERE photo_id IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `moderation_decisions_report_idx` ON `moderation_decisions` (`report_id`) WHERE report_id IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `moderation_decisions_appeal_idx` ON `moderation_decisions` (`appeal_id`) WHERE appeal_id IS NOT NULL;--> statement-breakpoint
CREATE TABLE `appeals` (
	`id` integer PRIMARY KEY NOT NULL,
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
--> statement-breakpoint
CREATE UNIQUE INDEX `appeals_decision_idx` ON `appeals` (`decision_id`);--> statement-breakpoint
CREATE INDEX `appeals_status_idx` ON `appeals` (`status`,`created_at`);
