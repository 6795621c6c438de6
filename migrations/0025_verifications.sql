-- Verified people (docs/decisions/0040): a member's pose selfie waits for a moderator, who approves
-- it or rejects it with a reason. The selfie's R2 key is dropped (and the object deleted) 30 days
-- after the decision; the row stays for the figures. `photo_check` rows re-check a new main photo
-- against the selfie an approved member took. One waiting row per profile at most.
CREATE TABLE `verifications` (
	`id` integer PRIMARY KEY NOT NULL,
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
);--> statement-breakpoint
CREATE INDEX `verifications_queue_idx` ON `verifications` (`status`,`asked_at`);--> statement-breakpoint
CREATE INDEX `verifications_profile_idx` ON `verifications` (`profile_id`,`asked_at`);--> statement-breakpoint
CREATE INDEX `verifications_decided_idx` ON `verifications` (`decided_at`);--> statement-breakpoint
CREATE INDEX `verifications_site_idx` ON `verifications` (`site_domain`,`asked_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `verifications_waiting_idx` ON `verifications` (`profile_id`) WHERE `status` = 'pending';--> statement-breakpoint
ALTER TABLE `profiles` ADD `verified` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `profiles` ADD `verified_photo_id` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `verified_only` integer DEFAULT 0 NOT NULL;
