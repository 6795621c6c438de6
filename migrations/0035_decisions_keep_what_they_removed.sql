-- A decision that removes or disables keeps what it changed (issue 39, docs/decisions/0059): the
-- profile's text, its main photo and each photo's status before "remove the content", the account's
-- and profile's status before "disable", the removed chat message. A reversed appeal gives back
-- exactly that; the reviewer of the appeal sees it as the evidence. Kept while an appeal can still
-- come or is open, then cleared by the retention run (services/retention.ts).
ALTER TABLE moderation_decisions ADD COLUMN kept_content TEXT;
