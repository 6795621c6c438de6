-- Apply only once `npm run chat-move -- --remote` reports no conversation left to move
-- (docs/decisions/0013): every message then lives in its conversation's object.
DROP TABLE `messages`;
