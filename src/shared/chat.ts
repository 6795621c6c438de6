/**
 * Chat shapes shared by the Worker, the conversation's Durable Object and the client: the socket
 * protocol (one discriminated union each way; the client's frames are checked on arrival with the
 * valibot schema in chat-frames.ts, kept apart so the client bundle does not carry valibot) and the
 * answers of the chat calls (GET /api/chats.php, GET /api/chat.php, GET /api/gifts.php).
 */
import type { MainImage } from "./api";
import type { CreditValue } from "./payments";

const MESSAGE_KINDS = ["text", "image", "gift"] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/** Messages of one history page (GET /api/chat.php, newest page first, `before` for older ones). */
export const HISTORY_PAGE_SIZE = 30;
/** A client repeats "typing" at most this often while the member types; the indicator lasts a little longer. */
export const TYPING_REPEAT_MS = 2500;
export const TYPING_SHOWN_MS = 5000;

/** An image message as one viewer may see it: the original only for its sender and premium members. */
export type ChatImage = { thumb: string; image: string; locked: boolean; width: number; height: number };
export type ChatGift = { slug: string; name: string; image: string };

export type ChatMessage = {
  id: number;
  conversation_id: number;
  sender_id: number;
  client_id: string;
  kind: MessageKind;
  body: string | null;
  image: ChatImage | null;
  gift: ChatGift | null;
  /** Credits this message cost its sender; only the sender is told (0 for the other member). */
  credits: number;
  created_at: number;
  /** A moderator removed it (docs/decisions/0041): no text, photo or gift; the page says so in its place. */
  removed: boolean;
};

/** Why a member cannot write in a conversation now (shown above the send footer). */
export type ChatBlockedReason = "not_confirmed" | "blocked" | "blocked_by" | "unavailable" | "verified_only";

/** What the server sends over the conversation's socket. */
export type ServerFrame =
  /** First frame after connecting: the conversation (null until its first message) and the other member's read mark. */
  | { type: "ready"; conversation_id: number | null; peer_read_id: number | null; unread: number }
  /** Only to the socket that sent it: the message is stored (and charged); `credits` is the sender's balance now. */
  /** `bookmark`: the D1 state the object's last write left, for the page's next requests (docs/decisions/0033). */
  | { type: "ack"; client_id: string; message: ChatMessage; credits: number; bookmark?: string }
  /** A stored message, to every other socket of both members. */
  | { type: "message"; message: ChatMessage }
  /** A send or frame was refused; nothing was stored or charged. */
  | { type: "error"; client_id: string | null; error: string; message: string }
  | { type: "typing"; profile_id: number }
  /** `profile_id` has read up to `message_id`. */
  | { type: "read"; profile_id: number; message_id: number }
  /** The receiving member's unread count in this conversation changed. */
  | { type: "unread"; count: number }
  /** A moderator removed the message: open pages show it as removed (docs/decisions/0041). */
  | { type: "removed"; message_id: number };

/** The other member as the chat shows them. */
export type ChatProfile = {
  id: number;
  name: string;
  age: number;
  city: string | null;
  main_image: MainImage | null;
  fictional: boolean;
  last_active_at: number;
  /** The member is premium (paid_user): their photo has the premium border (SPEC §6). */
  premium: boolean;
  /** The verified badge (docs/decisions/0040). */
  verified: boolean;
};

/** SPEC §3 chat item, with what the overview shows. */
export type ChatItem = {
  conversation: { id: number };
  profile: ChatProfile;
  num_unread_messages: number;
  last_message: { kind: MessageKind; body: string | null; sender_id: number; created_at: number } | null;
  last_message_at: number;
};

/** GET /api/chats.php */
export type ChatsResponse = { chats: ChatItem[]; total_unread: number };

/** What sending costs this member in this conversation now, per kind, in credits (src/shared/send-costs.ts reads it). */
export type ChatCosts = {
  /** A text message once the free ones are used (or for a premium member). */
  message: number;
  photo: number;
  /** Free text messages left in this conversation (free members within their allowance). */
  free_messages_left: number;
  /** The smallest price of a message in the member's country, for the premium alert (SPEC §3 minimum_message_costs). */
  minimum_message_costs: { costs: number; currency: string } | null;
  /** What a credit is worth to this member (their last bundle, or the site's cheapest); null when the site sells none here. */
  credit_value: CreditValue | null;
  /** A photo or gift above this many credits asks before it is sent. */
  confirm_above: number;
  /** The member has paid for a message in this conversation already: the first paid one asked then. */
  paid_here: boolean;
};

/** GET /api/chat.php?profile=ID (or ?conversation=ID) [&before=MESSAGE_ID] */
export type ChatResponse = {
  conversation: { id: number } | null;
  profile: ChatProfile;
  /** Oldest first. */
  messages: ChatMessage[];
  has_more: boolean;
  /** The other member's read mark: messages up to this id have been seen. */
  peer_read_id: number | null;
  /** Null when the member may write; otherwise why not. */
  blocked_reason: ChatBlockedReason | null;
  costs: ChatCosts;
  credits: number;
  paid_user: boolean;
  message_length: number;
};

export type Gift = { slug: string; name: string; image: string; credits: number };
/** GET /api/gifts.php */
export type GiftsResponse = {
  gifts: Gift[];
  credit_value: CreditValue | null;
  /** A gift above this many credits asks before it is sent (as in the chat's costs). */
  confirm_above: number;
};

/** POST /api/chat-photo.php (multipart field `photo`): a photo to send as an image message. */
export type ChatPhotoResponse = { photo: { id: number; thumb: string; image: string; width: number; height: number } };

/** The socket's address for a conversation with a profile. */
export const chatSocketPath = (profileId: number) => `/api/chat-socket.php?profile=${profileId}`;
