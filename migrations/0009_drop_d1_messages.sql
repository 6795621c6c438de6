-- Applied once every conversation's messages had moved into its object
-- (docs/decisions/0015): every message then lives in its conversation's object.
DROP TABLE `messages`;
