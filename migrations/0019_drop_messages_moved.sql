-- The move of chat messages out of D1's old messages table is gone (docs/decisions/0029): every
-- conversation's messages live in its object, so the mark of a conversation still waiting is dropped.
ALTER TABLE `conversations` DROP COLUMN `messages_moved`;
-- The read marks live in the objects too; D1's copy was read only by the move.
ALTER TABLE `conversation_members` DROP COLUMN `last_read_message_id`;
