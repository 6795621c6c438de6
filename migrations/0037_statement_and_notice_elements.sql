-- The elements DSA Art. 17(3) asks of every statement of reasons and Art. 16(2) of every notice
-- (issue 39), as columns the decision, report and transparency code all read. Added before that work
-- was split, so that each part uses the same names.
--
-- measure: what was done (remove_item | remove_all | warn | restrict_chat | restrict_search |
-- suspend | disable | delete | refuse_photo | refuse_verification | none), beside `outcome`.
ALTER TABLE moderation_decisions ADD COLUMN measure TEXT;
--> statement-breakpoint
-- notice (a report), own_initiative (the platform's own moderation: photo queue, signals, support),
-- authority_order (an order of a national authority, Art. 9 and 10).
ALTER TABLE moderation_decisions ADD COLUMN initiative TEXT NOT NULL DEFAULT 'notice';
--> statement-breakpoint
-- Whether automated means detected or flagged what was decided (Art. 17(3)(c)); `automated` says
-- whether the decision itself was taken by automated means.
ALTER TABLE moderation_decisions ADD COLUMN detection_automated INTEGER NOT NULL DEFAULT 0;
--> statement-breakpoint
-- Which content (JSON: {"photo_ids":[..],"message_ids":[..],"text":true}) and which sites (JSON array
-- of domains; empty = every site of the brand).
ALTER TABLE moderation_decisions ADD COLUMN content_scope TEXT;
--> statement-breakpoint
ALTER TABLE moderation_decisions ADD COLUMN territorial_scope TEXT;
--> statement-breakpoint
-- A restriction's start and end (seconds; end NULL = until lifted), and when it was lifted early.
ALTER TABLE moderation_decisions ADD COLUMN starts_at INTEGER;
--> statement-breakpoint
ALTER TABLE moderation_decisions ADD COLUMN ends_at INTEGER;
--> statement-breakpoint
ALTER TABLE moderation_decisions ADD COLUMN lifted_at INTEGER;
--> statement-breakpoint
-- illegal (the law concerned is in `legal_ground`) or terms (the clause is in `terms_clause`).
ALTER TABLE moderation_decisions ADD COLUMN basis TEXT;
--> statement-breakpoint
ALTER TABLE moderation_decisions ADD COLUMN legal_ground TEXT;
--> statement-breakpoint
ALTER TABLE moderation_decisions ADD COLUMN terms_clause TEXT;
--> statement-breakpoint
-- The per-ground facts template chosen (its text is drawn in the member's language); `facts` stays
-- the moderator's own optional words, which the statement marks as such.
ALTER TABLE moderation_decisions ADD COLUMN fact_template TEXT;
--> statement-breakpoint
CREATE INDEX moderation_decisions_created_idx ON moderation_decisions (created_at);
--> statement-breakpoint
-- A notice (Art. 16(2)): the notifier's name (NULL = anonymous), the good-faith statement, the
-- category (one of the DSA Transparency Database's categories), the basis (illegal | terms), the law
-- concerned for illegal content, the exact location (URL), and one photo when it is about one.
ALTER TABLE reports ADD COLUMN reporter_name TEXT;
--> statement-breakpoint
ALTER TABLE reports ADD COLUMN good_faith INTEGER NOT NULL DEFAULT 0;
--> statement-breakpoint
ALTER TABLE reports ADD COLUMN category TEXT;
--> statement-breakpoint
ALTER TABLE reports ADD COLUMN basis TEXT;
--> statement-breakpoint
ALTER TABLE reports ADD COLUMN law TEXT;
--> statement-breakpoint
ALTER TABLE reports ADD COLUMN location TEXT;
--> statement-breakpoint
ALTER TABLE reports ADD COLUMN photo_id INTEGER;
