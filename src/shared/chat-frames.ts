/** What a client may send over a conversation's socket: the schema the Durable Object checks every frame with. */
import * as v from "valibot";

/** A client's own id for a message, so a send retried after a lost answer is stored once. */
const ClientId = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{8,64}$/));
const Id = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2_147_483_647));

/**
 * What a client may send over the conversation's socket. Sends are told apart by their kind too (a
 * variant inside the variant), so a frame is checked against its own kind's schema only.
 */
export const ClientFrame = v.variant("type", [
  v.variant("kind", [
    v.object({
      type: v.literal("send"),
      client_id: ClientId,
      kind: v.literal("text"),
      body: v.pipe(v.string(), v.maxLength(20_000)),
    }),
    v.object({ type: v.literal("send"), client_id: ClientId, kind: v.literal("image"), photo_id: Id }),
    v.object({
      type: v.literal("send"),
      client_id: ClientId,
      kind: v.literal("gift"),
      gift: v.pipe(v.string(), v.regex(/^[a-z0-9_-]{1,32}$/)),
    }),
  ]),
  v.object({ type: v.literal("typing") }),
  /** The member has seen the conversation up to this message (it is on screen): clears their unread count. */
  v.object({ type: v.literal("read"), message_id: Id }),
]);
export type ClientFrame = v.InferOutput<typeof ClientFrame>;
export type SendFrame = Extract<ClientFrame, { type: "send" }>;
