-- The server's pose for a verification selfie (issue 37, docs/decisions/0049): drawn for the member,
-- kept for 15 minutes (VERIFICATION_POSE_SECONDS), the only pose a selfie is accepted for. A member's
-- latest row is their pose; `asked` marks the other poses they asked for (a few a day), `used_at` the
-- pose a selfie was taken in. Rows go with the profile.
CREATE TABLE `verification_poses` (
	`id` integer PRIMARY KEY NOT NULL,
	`profile_id` integer NOT NULL,
	`pose` text NOT NULL,
	`drawn_at` integer NOT NULL,
	`asked` integer DEFAULT 0 NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`profile_id`) REFERENCES `profiles`(`id`) ON UPDATE no action ON DELETE cascade
);--> statement-breakpoint
CREATE INDEX `verification_poses_profile_idx` ON `verification_poses` (`profile_id`,`drawn_at`);
