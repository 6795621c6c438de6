-- The SMS kept in outgoing_sms carry the direct-debit code in plain text for OUTBOX_RETENTION_DAYS,
-- though sms_codes keeps it only as a hash (issue 38). From now on a row keeps the text with its
-- digits masked unless the SMS stayed in the development outbox (src/server/sms/sms.ts); the rows
-- already kept are masked alike.
UPDATE outgoing_sms
SET text = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(
  text, '0', '•'), '1', '•'), '2', '•'), '3', '•'), '4', '•'), '5', '•'), '6', '•'), '7', '•'), '8', '•'), '9', '•');
