-- The DSA transparency report and the Transparency Database (issue 39, docs/decisions/0063).
--
-- Each restricting decision's statement of reasons as it is submitted to the Commission's DSA
-- Transparency Database (Art. 24(5)): one row per decision, made by the submission job when the
-- decision's company submits; `puid` is the platform's own id of the statement, `uuid` the one the
-- database answers. state: waiting (until accepted, retried with a growing wait) | accepted |
-- outside_union (no site of the decision is in the EU/EEA: nothing to submit). `claimed_until`: a
-- run of the job holds the row until then, so two runs never send one statement twice.
CREATE TABLE `transparency_submissions` (
	`decision_id` integer PRIMARY KEY NOT NULL REFERENCES `moderation_decisions`(`id`) ON DELETE CASCADE,
	`company_id` text NOT NULL,
	`puid` text NOT NULL,
	`state` text DEFAULT 'waiting' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`claimed_until` integer,
	`last_status` integer,
	`last_error` text,
	`uuid` text,
	`submitted_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `transparency_submissions_due_idx` ON `transparency_submissions` (`state`, `next_attempt_at`);
--> statement-breakpoint
-- Disputes a member took to a certified out-of-court body (Art. 21), as the body tells the company,
-- for the report's Art. 24(1)(a) figures. outcome: complainant | provider | settled | withdrawn.
CREATE TABLE `out_of_court_disputes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`decision_id` integer REFERENCES `moderation_decisions`(`id`) ON DELETE SET NULL,
	`site_domain` text NOT NULL,
	`body` text NOT NULL,
	`received_at` integer NOT NULL,
	`outcome` text,
	`closed_at` integer,
	`implemented` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `out_of_court_disputes_received_idx` ON `out_of_court_disputes` (`received_at`);
--> statement-breakpoint
-- Who used the service in a calendar month (UTC), for the average monthly active recipients of
-- Art. 24(2): a row the first time a member's session is used in a month (the session's touch,
-- at most every ten minutes), with the site and the profile's country. Sessions themselves end and
-- are deleted, so they cannot tell past months.
CREATE TABLE `active_months` (
	`month` text NOT NULL,
	`user_id` integer NOT NULL,
	`site_domain` text NOT NULL,
	`country` text NOT NULL,
	PRIMARY KEY(`month`, `user_id`)
) WITHOUT ROWID;
