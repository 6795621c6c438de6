-- Chat charges rolled up (docs/decisions/0033): a paid message no longer writes a ledger row of its
-- own. Each member's charges in one conversation on one UTC day are one row, reason 'chat', ref
-- 'chat:<conversation id>:<sender profile id>:<YYYY-MM-DD>', its delta the sum of the charges,
-- upserted in the batch that changes the balance. The per-message detail lives with each message in
-- the conversation's object. Rows written before stay as they are (one per message, reason
-- message, photo or gift, ref 'chat:<conversation id>:<message id>'), so every balance still equals
-- the sum of its ledger.
-- How many messages the row's charges are; null on every other row.
ALTER TABLE `credit_ledger` ADD `messages` integer;
--> statement-breakpoint
-- The watermark: the highest message id of the conversation charged in this row. Messages are
-- recorded in D1 in increasing id order, so a charge whose id is not above it was taken before (a
-- batch replayed after its answer was lost) and every statement of the charge does nothing.
ALTER TABLE `credit_ledger` ADD `through_message_id` integer;
