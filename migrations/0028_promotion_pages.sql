-- A member appears on the site's promotion pages (the member landing pages, the landers' rows of
-- members) only after choosing to (issue 37, docs/decisions/0052): off for every member, old and new.
ALTER TABLE users ADD COLUMN promotion_pages INTEGER NOT NULL DEFAULT 0;
