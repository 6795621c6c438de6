CREATE TABLE `places` (
	`id` integer PRIMARY KEY NOT NULL,
	`country` text NOT NULL,
	`region_id` integer,
	`name` text NOT NULL,
	`lat` real NOT NULL,
	`lon` real NOT NULL,
	`population` integer NOT NULL,
	`cell` integer NOT NULL,
	FOREIGN KEY (`region_id`) REFERENCES `regions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `places_cell_idx` ON `places` (`cell`,`lat`,`lon`);