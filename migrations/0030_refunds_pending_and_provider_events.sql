-- Refunds that holds on the provider's bad day and Mollie's next-gen webhooks (issue 38,
-- docs/decisions/0054). A member's refund request keeps the description it was sent with, so a
-- repeat with the same Idempotency-Key carries the very same parameters (Mollie answers 400 to the
-- same key with others: https://docs.mollie.com/reference/api-idempotency).
ALTER TABLE payment_adjustments ADD COLUMN description TEXT;
--> statement-breakpoint
-- The events a provider's signed webhook delivered, by the provider's event id: a duplicate or a
-- concurrent delivery of one event is seen here, its effect made once by the adjustments' marks.
CREATE TABLE `provider_events` (
	`provider` text NOT NULL,
	`event_id` text NOT NULL,
	`type` text NOT NULL,
	`entity_id` text NOT NULL,
	`received_at` integer NOT NULL,
	`handled_at` integer,
	PRIMARY KEY(`provider`, `event_id`)
);
--> statement-breakpoint
CREATE INDEX `provider_events_received_idx` ON `provider_events` (`received_at`);
--> statement-breakpoint
-- The clock work looks up the member's refund requests still without an answer.
CREATE INDEX `payment_adjustments_unanswered_idx` ON `payment_adjustments` (`created_at`) WHERE provider_id IS NULL AND given_back_at IS NULL;
