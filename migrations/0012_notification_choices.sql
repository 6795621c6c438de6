CREATE TABLE `mail_clock` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`unread_reminder_at` integer,
	`unread_reminded_up_to` integer,
	`weekly_update_at` integer,
	`activation_reminder_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `mail_stops` (
	`user_id` integer NOT NULL,
	`reason` text NOT NULL,
	`kind` text DEFAULT '' NOT NULL,
	`address` text,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	PRIMARY KEY(`user_id`, `reason`, `kind`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `notification_choices` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`choices` text NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `unread_mail_marks` (
	`profile_id` integer NOT NULL,
	`conversation_id` integer NOT NULL,
	`mailed_at` integer NOT NULL,
	PRIMARY KEY(`profile_id`, `conversation_id`),
	FOREIGN KEY (`profile_id`) REFERENCES `profiles`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `outgoing_mail` ADD `headers` text;