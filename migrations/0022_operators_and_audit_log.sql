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
