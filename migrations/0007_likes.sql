CREATE TABLE `like_rate` (
	`profile_id` integer PRIMARY KEY NOT NULL,
	`window_start` integer NOT NULL,
	`likes` integer NOT NULL,
	FOREIGN KEY (`profile_id`) REFERENCES `profiles`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `swipe_days` (
	`profile_id` integer NOT NULL,
	`day` text NOT NULL,
	`likes` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`profile_id`, `day`),
	FOREIGN KEY (`profile_id`) REFERENCES `profiles`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `swipe_passes` (
	`profile_id` integer NOT NULL,
	`passed_id` integer NOT NULL,
	`day` text NOT NULL,
	PRIMARY KEY(`profile_id`, `passed_id`),
	FOREIGN KEY (`profile_id`) REFERENCES `profiles`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`passed_id`) REFERENCES `profiles`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `likes` ADD `matched_at` integer;--> statement-breakpoint
CREATE INDEX `likes_new_idx` ON `likes` (`liked_id`,`is_new`,`created_at`);--> statement-breakpoint
CREATE INDEX `likes_matches_idx` ON `likes` (`liker_id`,`matched_at`);