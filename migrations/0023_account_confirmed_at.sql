-- hand-written
-- When a member confirmed their address (used the activation link), for the console's dashboard
-- (issue 24 point 6): the used link itself is deleted a day later by the retention run
-- (docs/decisions/0032), so the day of an activation must live on the account. Accounts confirmed
-- before this migration keep it empty.
ALTER TABLE `users` ADD `confirmed_at` integer;
