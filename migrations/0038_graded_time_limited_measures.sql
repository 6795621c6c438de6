-- Graded, time-limited measures (issue 39, docs/decisions/0061). Each column is the moment (seconds)
-- a restriction of that kind ends; NULL = none; 253402300799 (9999-12-31) = until lifted. The member
-- side compares it with `now`, so a restriction ends by itself; lifting one early or a reversed
-- appeal sets it again from the decisions still in force.
ALTER TABLE users ADD COLUMN chat_restricted_until INTEGER;
--> statement-breakpoint
ALTER TABLE users ADD COLUMN suspended_until INTEGER;
--> statement-breakpoint
-- The end of a search restriction (restricted_at says since when); NULL = until lifted. The clock
-- every five minutes (services/measures.ts) ends those whose time has come.
ALTER TABLE users ADD COLUMN restricted_until INTEGER;
