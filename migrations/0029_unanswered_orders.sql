-- Orders not settled yet (open or pending, not credited), by when they were made: what the clock reads
-- every five minutes to find orders whose create at the provider got no answer (issue 38,
-- docs/decisions/0053). Partial, so it holds only the few orders still waiting.
CREATE INDEX orders_unsettled_idx ON orders (created_at) WHERE status IN ('open', 'pending') AND credited_at IS NULL;
