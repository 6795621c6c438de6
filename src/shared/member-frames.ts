/**
 * The member socket (GET /api/member-socket.php): one per open page of a logged-in member, to their
 * member channel (src/server/notices/member-channel.ts). Both directions are valibot schemas: the
 * object checks what a page sends, the page checks what arrives before it touches its caches.
 */
import * as v from "valibot";
import type { MemberEvent } from "./member-events";

/** The socket's address; `visible`: whether the page is in view as it connects. */
export const memberSocketPath = (visible: boolean) => `/api/member-socket.php?visible=${visible ? 1 : 0}`;

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));
const Id = v.pipe(v.number(), v.integer(), v.minValue(1));

/**
 * The member's badges as they are now, whole (never a change), so a lost frame heals on the next:
 * unread messages over all conversations, unseen likes, and the balance with the premium flag.
 */
export const BadgeCounts = v.object({
  unread_messages: Count,
  new_likes: Count,
  credits: v.number(),
  paid_user: v.boolean(),
});
export type BadgeCounts = v.InferOutput<typeof BadgeCounts>;

const MemberEventSchema = v.variant("kind", [
  v.object({
    kind: v.literal("message"),
    conversation_id: Id,
    peer_id: Id,
    peer_name: v.string(),
    message_kind: v.picklist(["text", "image", "gift"]),
    preview: v.nullable(v.string()),
    first: v.boolean(),
    unread: Count,
    created_at: v.number(),
  }),
  v.object({ kind: v.literal("read"), conversation_id: Id, peer_id: Id, unread: Count }),
  v.object({ kind: v.literal("like"), liker_id: Id, liker_name: v.string(), created_at: v.number() }),
  v.object({
    kind: v.literal("match"),
    peer_id: Id,
    peer_name: v.string(),
    peer_photo: v.nullable(v.string()),
    peer_verified: v.optional(v.boolean()),
    created_at: v.number(),
  }),
  v.object({ kind: v.literal("credits"), credits: v.number(), paid_user: v.boolean() }),
  v.object({ kind: v.literal("profile"), profile_id: Id }),
]);

/** What the member channel sends a page. */
export const MemberFrame = v.variant("type", [
  /** On connecting (and whenever the channel read them again): the badges from the database. */
  v.object({ type: v.literal("counts"), counts: BadgeCounts }),
  /** Something happened to the member, with the badges after it. */
  v.object({ type: v.literal("event"), event: MemberEventSchema, counts: BadgeCounts }),
  /** A page of the member went hidden without saying which (the beacon): each page answers whether it is in view. */
  v.object({ type: v.literal("visibility_check") }),
]);
export type MemberFrame = v.InferOutput<typeof MemberFrame>;

/** What a page sends its member channel (besides the ping the object answers without waking). */
export const PageFrame = v.object({ type: v.literal("visibility"), visible: v.boolean() });
export type PageFrame = v.InferOutput<typeof PageFrame>;

// The schema above must describe exactly the events the producers make.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const eventsMatch: Same<v.InferOutput<typeof MemberEventSchema>, MemberEvent> = true;
void eventsMatch;
