-- Notices (DSA Art. 16) and the notifier's side (issue 39 point 7, docs/decisions/0062).
--
-- queue: moderation (a notice about content) | support (billing, the account, personal data, other
-- questions): support's questions never reach the moderators' queue, nor count as notices.
ALTER TABLE reports ADD COLUMN queue TEXT NOT NULL DEFAULT 'moderation';
--> statement-breakpoint
-- Open payment complaints filed before the split are support's.
UPDATE reports SET queue = 'support' WHERE subject = 'payment' AND status = 'open';
--> statement-breakpoint
DROP INDEX IF EXISTS reports_status_idx;
--> statement-breakpoint
CREATE INDEX reports_status_idx ON reports (queue, status, created_at);
--> statement-breakpoint
-- An appeal the notifier files against the dismissal of their notice (Art. 20(1)), beside the
-- member's appeals: it is the same queue, decided by another operator than the one who dismissed.
ALTER TABLE appeals ADD COLUMN by_notifier INTEGER NOT NULL DEFAULT 0;
