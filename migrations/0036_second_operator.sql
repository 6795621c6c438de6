-- A second operator confirms destructive and large money actions (issue 39 point 10,
-- docs/decisions/0060): the first operator's request waits here until another operator with the
-- role confirms or declines it, or it expires. At most one waiting request per action and target.
CREATE TABLE `operator_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`action` text NOT NULL,
	`target_kind` text NOT NULL,
	`target_id` text NOT NULL,
	`role` text NOT NULL,
	`summary` text NOT NULL,
	`details` text NOT NULL,
	`reason` text NOT NULL,
	`requested_by` integer NOT NULL REFERENCES `operators`(`id`),
	`requested_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`status` text DEFAULT 'waiting' NOT NULL,
	`decided_by` integer REFERENCES `operators`(`id`),
	`decided_at` integer,
	`outcome` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `operator_requests_waiting_idx` ON `operator_requests` (`action`, `target_kind`, `target_id`) WHERE status = 'waiting';
--> statement-breakpoint
CREATE INDEX `operator_requests_status_idx` ON `operator_requests` (`status`, `requested_at`);
--> statement-breakpoint
-- The status an account had when it was disabled, so enabling it gives that back: an account that
-- never confirmed its e-mail address stays not_confirmed (before this, enabling made it active).
ALTER TABLE users ADD COLUMN status_before_disabled TEXT;
