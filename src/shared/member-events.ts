/**
 * What happens to a member that their open pages (the member channel), their push subscriptions
 * and their mail hear of. Shared by the Worker, the objects, the pages and the service worker.
 */
import type { MessageKind } from "./chat";

export type MemberEvent =
  /** A message reached the member; `first`: it opened a conversation they had not had before. */
  | {
      kind: "message";
      conversation_id: number;
      peer_id: number;
      peer_name: string;
      message_kind: MessageKind;
      /** The text of a text message (the first 140 characters), null for photos and gifts. */
      preview: string | null;
      first: boolean;
      /** The member's unread messages in this conversation after it. */
      unread: number;
      created_at: number;
    }
  /** The member read a conversation (on any page): their unread count there is now `unread`. */
  | { kind: "read"; conversation_id: number; peer_id: number; unread: number }
  /** Someone liked the member (not yet a match). */
  | { kind: "like"; liker_id: number; liker_name: string; created_at: number }
  /**
   * A like made the member and `peer` a match (told to both). `peer_photo`: the match path of the
   * peer's public main photo (after the site's cdn_prefix), null without one: the match moment shows it.
   */
  | {
      kind: "match";
      peer_id: number;
      peer_name: string;
      peer_photo: string | null;
      peer_verified?: boolean;
      created_at: number;
    }
  /** The member's balance or premium standing changed (a send, a purchase, a refund). */
  | { kind: "credits"; credits: number; paid_user: boolean }
  /** A moderation decision changed what a profile shows (a photo approved or refused, a restriction): pages showing it load it again. */
  | { kind: "profile"; profile_id: number };

export type MemberEventKind = MemberEvent["kind"];

/**
 * What a push message carries to the service worker (src/sw.ts): already in the member's language,
 * discreet unless the member turned previews on. `tag` collapses notifications (one per conversation);
 * `url` is the page a click opens or focuses.
 */
export type PushPayload = {
  kind: "message" | "like" | "match";
  title: string;
  body: string;
  tag: string;
  url: string;
  /** Unread messages plus new likes after this event, for the app icon badge; null when unknown. */
  badge: number | null;
};

/** What the service worker posts to the site's open pages when a push arrives: they reload chats and likes (SPEC §4). */
export type PushedToPages = { type: "pushed"; kind: PushPayload["kind"] };

/** How many pages of the member are open right now, and how many of those are in view (not hidden). */
export type Presence = { open: number; visible: number };
