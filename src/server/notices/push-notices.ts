import type { Translate } from "../../shared/translator";
import { pathFor } from "../../shared/routes";
import type { MemberEvent, Presence, PushPayload } from "../../shared/member-events";
import { NEW_LIKES_CAP } from "../../shared/likes";
import { DEFAULT_LANGUAGE, isLanguage } from "../../shared/locales";
import type { NotificationChoices, PushKind } from "../../shared/notifications";
import { unreadTotalOf } from "../db/conversations";
import { databaseOf, type Database } from "../db/database";
import { countNewLikes } from "../db/likes";
import { notificationChoicesOf } from "../db/notification-choices";
import { pushRecipient } from "../db/push-subscriptions";
import { loadSite } from "../edge/site";
import { i18nFor } from "../translations";
import { deliverPush, pushSenderFor, type PushMessage } from "../push/sender";

type Pushable = Extract<MemberEvent, { kind: "message" | "like" | "match" }>;

/** A push service keeps an undelivered push a day for a browser that is offline; later it is stale. */
const TTL_SECONDS = 24 * 60 * 60;

/**
 * The member's push kind an event falls under, or null when it is not pushed: a message only when
 * none of the member's pages is in view (an open page already shows it), a like and a match always,
 * never a read or a balance change.
 */
function pushKindOf(event: MemberEvent, presence: Presence): PushKind | null {
  if (event.kind === "message")
    return presence.visible === 0 ? (event.first ? "new_conversations" : "new_messages") : null;
  if (event.kind === "like" || event.kind === "match") return "like";
  return null;
}

/**
 * What the notification says, in the member's language: who did what, and the text of a message only
 * when the member turned previews on (a lock screen is seen by others). `tag` collapses one
 * conversation's notifications into one; `url` is the page a click opens.
 */
function pushPayloadOf(
  event: Pushable,
  t: Translate,
  previews: NotificationChoices["previews"],
  badge: number | null,
): PushPayload {
  if (event.kind === "like")
    return {
      kind: "like",
      title: t("push.like.title"),
      body: t("push.like.body", { name: event.liker_name }),
      tag: "likes",
      url: pathFor("likes"),
      badge,
    };
  if (event.kind === "match") {
    return {
      kind: "match",
      title: t("push.match.title"),
      body: t("push.match.body", { name: event.peer_name }),
      tag: `match-${event.peer_id}`,
      url: pathFor("members-id", { id: event.peer_id }),
      badge,
    };
  }
  const name = event.peer_name;
  const shown = previews && event.message_kind === "text" && event.preview ? event.preview : null;
  const body =
    shown ??
    (event.message_kind === "image"
      ? t("push.message.photo", { name })
      : event.message_kind === "gift"
        ? t("push.message.gift", { name })
        : t(event.first ? "push.message.first" : "push.message.body", { name }));
  const title = shown
    ? t("push.message.from", { name })
    : t(event.first ? "push.message.first_title" : "push.message.title");
  return {
    kind: "message",
    title,
    body,
    tag: `conversation-${event.peer_id}`,
    url: pathFor("members-id-chat", { id: event.peer_id }),
    badge,
  };
}

/** How the push service treats it: a message is urgent and replaces the conversation's earlier one not yet fetched. */
function messageOf(payload: PushPayload): PushMessage {
  return {
    payload,
    topic: payload.tag.slice(0, 32),
    urgency: payload.kind === "message" ? "high" : "normal",
    ttl: TTL_SECONDS,
  };
}

/** Unread messages plus new likes, for the app icon badge; null (the page counts itself) when it cannot be read. */
async function badgeOf(db: Database, profileId: number): Promise<number | null> {
  try {
    const [unread, likes] = await Promise.all([
      unreadTotalOf(db, profileId),
      countNewLikes(db, profileId, NEW_LIKES_CAP),
    ]);
    return unread + likes;
  } catch {
    return null;
  }
}

/**
 * Push an event to the member's subscribed browsers when their presence and choices call for it
 * (issue 13 item 3): only to a live account, only for the kinds the member keeps on, discreet unless
 * they turned previews on. Never throws for a push service's failure (sender.ts logs it).
 */
export async function tellByPush(
  env: Env,
  profileId: number,
  event: MemberEvent,
  presence: Presence,
  now: number,
): Promise<void> {
  const kind = pushKindOf(event, presence);
  if (kind === null || (event.kind !== "message" && event.kind !== "like" && event.kind !== "match")) return;
  const db = databaseOf(env.DB);
  const recipient = await pushRecipient(db, profileId, now);
  if (!recipient || recipient.subscriptions.length === 0) return;
  const choices = await notificationChoicesOf(db, recipient.userId);
  if (!choices.push[kind]) return;
  const site = await loadSite(env.SETTINGS, recipient.siteDomain);
  if (!site) return;
  const sender = pushSenderFor(env, db, site.settings);
  if (!sender) return;
  const t = i18nFor(
    isLanguage(recipient.language) ? recipient.language : DEFAULT_LANGUAGE,
    site.settings.countries[0],
  ).t;
  const payload = pushPayloadOf(event, t, choices.previews, await badgeOf(db, profileId));
  await deliverPush(db, sender, recipient.userId, recipient.subscriptions, messageOf(payload), now);
}
