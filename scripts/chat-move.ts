/**
 * The move of chat messages from D1's old `messages` table into the conversations' Durable Objects
 * (docs/decisions/0015): how far it is. The move itself runs in the Worker while it serves: each
 * object takes its conversation's messages over the first time it is used, and the clock work
 * (every five minutes) moves the rest in batches. Both are idempotent and resumable.
 *
 *   npm run chat-move -- --local                     (the local stack, .wrangler/state)
 *   npm run chat-move -- --remote --env production
 *
 * When it reports nothing left, migration 0007 (dropping D1's messages table) may be applied.
 */
import { operatorArgs, wrangler } from "./operator";

const { target } = operatorArgs();
const out = wrangler(["d1", "execute", "DB", "--json", "--command", "SELECT COUNT(*) AS n FROM conversations WHERE messages_moved = 0", ...target()]);
const [result] = JSON.parse(out.slice(out.indexOf("["))) as { results: { n: number }[] }[];
const left = result?.results[0]?.n ?? 0;
console.info(
  left === 0
    ? "Every conversation's messages are in its object: migration 0009_drop_d1_messages may be applied."
    : `${left} conversations still have their messages in D1; the Worker moves them (the clock work every five minutes). Run again later.`,
);
