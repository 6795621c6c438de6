/**
 * The whole data model in D1. Migrations under migrations/ are generated from this file by
 * drizzle-kit (`npm run db:generate`); never edit an applied migration, add a new one.
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

const now = sql`(unixepoch())`;

export const regions = sqliteTable(
  "regions",
  {
    id: integer("id").primaryKey(),
    country: text("country").notNull(),
    /** ISO 3166-2 subdivision code, e.g. NL-NH. */
    code: text("code").notNull(),
    name: text("name").notNull(),
  },
  (t) => [uniqueIndex("regions_code_idx").on(t.code), index("regions_country_idx").on(t.country, t.name)],
);

/**
 * Real towns of the demo countries, for GET /api/geocode.php: GeoNames' populated places of 1,000
 * people or more (data © GeoNames, CC BY 4.0), loaded by the seed. `cell` is the place's grid
 * square (see placeCell in services/geocode.ts), so a lookup reads only the squares around a point.
 */
export const places = sqliteTable(
  "places",
  {
    /** The GeoNames id. */
    id: integer("id").primaryKey(),
    country: text("country").notNull(),
    regionId: integer("region_id").references(() => regions.id),
    name: text("name").notNull(),
    lat: real("lat").notNull(),
    lon: real("lon").notNull(),
    population: integer("population").notNull(),
    cell: integer("cell").notNull(),
  },
  (t) => [index("places_cell_idx").on(t.cell, t.lat, t.lon)],
);

export const interests = sqliteTable("interests", {
  id: integer("id").primaryKey(),
  slug: text("slug").notNull().unique(),
  sort: integer("sort").notNull().default(0),
});

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    email: text("email").notNull(),
    username: text("username").notNull(),
    /** The username folded for comparison (NFKC, lower case): unique, so look-alike duplicates are refused. */
    usernameKey: text("username_key"),
    passwordHash: text("password_hash"),
    /** active | not_confirmed | pending_deletion | disabled */
    status: text("status").notNull().default("not_confirmed"),
    credits: integer("credits").notNull().default(0),
    paidUser: integer("paid_user", { mode: "boolean" }).notNull().default(false),
    language: text("language").notNull().default("en"),
    /** The site (domain) the member signed up on. */
    siteDomain: text("site_domain").notNull(),
    invisible: integer("invisible", { mode: "boolean" }).notNull().default(false),
    /** The member chose to appear on the site's promotion pages (migration 0028; off unless chosen). */
    promotionPages: integer("promotion_pages", { mode: "boolean" }).notNull().default(false),
    /** Only verified members may start a conversation with this member (docs/decisions/0040). */
    verifiedOnly: integer("verified_only", { mode: "boolean" }).notNull().default(false),
    signupDate: integer("signup_date").notNull().default(now),
    termsAcceptedAt: integer("terms_accepted_at"),
    termsVersion: text("terms_version"),
    deletionRequestedAt: integer("deletion_requested_at"),
    /** When the member used their activation link (migration 0023); empty for accounts confirmed before it. */
    confirmedAt: integer("confirmed_at"),
    network: text("network"),
    ref: text("ref"),
    sub1: text("sub1"),
    sub2: text("sub2"),
    sub3: text("sub3"),
    lastActiveAt: integer("last_active_at").notNull().default(now),
    /** Set while a moderation decision restricts the member (hidden from search and lists, migration 0022). */
    restrictedAt: integer("restricted_at"),
    /** When the search restriction ends (migration 0038); NULL while restricted = until lifted. */
    restrictedUntil: integer("restricted_until"),
    /** When a chat restriction ends (migration 0038): no sends before; UNTIL_LIFTED = until lifted. */
    chatRestrictedUntil: integer("chat_restricted_until"),
    /** When a suspension ends (migration 0038): no sign-in before; UNTIL_LIFTED = until lifted. */
    suspendedUntil: integer("suspended_until"),
    /** The status the account had when it was disabled (migration 0036): enabling it gives that back. */
    statusBeforeDisabled: text("status_before_disabled"),
  },
  (t) => [
    uniqueIndex("users_email_idx").on(t.email),
    uniqueIndex("users_username_key_idx").on(t.usernameKey),
    index("users_status_idx").on(t.status, t.deletionRequestedAt),
  ],
);

export const profiles = sqliteTable(
  "profiles",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    country: text("country").notNull(),
    /** male | female */
    gender: text("gender").notNull(),
    /** hetero | gay | lesbian | bi */
    sexuality: text("sexuality").notNull().default("hetero"),
    /** YYYY-MM-DD */
    birthDate: text("birth_date").notNull(),
    tattoos: text("tattoos"),
    hairColor: text("hair_color"),
    eyeColor: text("eye_color"),
    bodyType: text("body_type"),
    relationshipStatus: text("relationship_status"),
    regionId: integer("region_id").references(() => regions.id),
    city: text("city"),
    aboutMe: text("about_me"),
    mainPhotoId: integer("main_photo_id"),
    /** active | disabled */
    status: text("status").notNull().default("active"),
    /** Demo and fictional profiles are shown with the site's fictional icon and warning. */
    fictional: integer("fictional", { mode: "boolean" }).notNull().default(false),
    /**
     * 1 when the profile may appear in search: active, not invisible, not pending deletion.
     * Kept in step by the services that change those states, so search needs one index.
     */
    searchable: integer("searchable").notNull().default(1),
    /**
     * 1 when the main photo is an approved (active) photo: what "photo first" orders by. Kept in
     * step by the triggers of migration 0024 (main photo chosen, photo approved, rejected or deleted).
     */
    hasPhoto: integer("has_photo").notNull().default(0),
    lastActiveAt: integer("last_active_at").notNull().default(now),
    createdAt: integer("created_at").notNull().default(now),
    /** The verified badge (docs/decisions/0040): on while a moderator has seen the main photo beside the member's selfie. */
    verified: integer("verified", { mode: "boolean" }).notNull().default(false),
    /** The main photo the moderator saw beside the selfie; another main photo suspends the badge. */
    verifiedPhotoId: integer("verified_photo_id"),
  },
  (t) => [
    uniqueIndex("profiles_user_idx").on(t.userId),
    index("profiles_search_idx").on(t.country, t.searchable, t.gender, t.hasPhoto, t.lastActiveAt),
    index("profiles_search_any_gender_idx").on(t.country, t.searchable, t.hasPhoto, t.lastActiveAt),
    index("profiles_search_region_idx").on(t.regionId, t.searchable, t.gender, t.hasPhoto, t.lastActiveAt),
  ],
);

export const profileInterests = sqliteTable(
  "profile_interests",
  {
    profileId: integer("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    interestId: integer("interest_id")
      .notNull()
      .references(() => interests.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.profileId, t.interestId] })],
);

export const photos = sqliteTable(
  "photos",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    profileId: integer("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    /** Unguessable R2 keys of the original, the thumbnail and the blurred version. */
    key: text("key").notNull(),
    thumbKey: text("thumb_key").notNull(),
    blurKey: text("blur_key").notNull(),
    /** pending | active | rejected; only active photos are public. */
    status: text("status").notNull().default("pending"),
    position: integer("position").notNull().default(0),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [
    uniqueIndex("photos_key_idx").on(t.key),
    uniqueIndex("photos_thumb_key_idx").on(t.thumbKey),
    uniqueIndex("photos_blur_key_idx").on(t.blurKey),
    index("photos_profile_idx").on(t.profileId, t.position),
    /** The moderation queue: waiting photos oldest first (migration 0022). */
    index("photos_waiting_idx")
      .on(t.createdAt, t.id)
      .where(sql`status = 'pending'`),
  ],
);

/**
 * A like of one profile by another; liking twice is one row. `matched_at` is set on both rows of a
 * pair that like each other (when the second like came), so each member's matches are one index range.
 * `is_new` stays 1 until the liked member opens the liker's profile.
 */
export const likes = sqliteTable(
  "likes",
  {
    likerId: integer("liker_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    likedId: integer("liked_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    isNew: integer("is_new", { mode: "boolean" }).notNull().default(true),
    createdAt: integer("created_at").notNull().default(now),
    matchedAt: integer("matched_at"),
  },
  (t) => [
    primaryKey({ columns: [t.likerId, t.likedId] }),
    index("likes_liked_idx").on(t.likedId, t.createdAt),
    index("likes_liker_idx").on(t.likerId, t.createdAt),
    index("likes_new_idx").on(t.likedId, t.isNew, t.createdAt),
    index("likes_matches_idx").on(t.likerId, t.matchedAt),
  ],
);

/** Likes a member gave in the swipe game per day of the site's time zone (SPEC §6, §9: at most 4). */
export const swipeDays = sqliteTable(
  "swipe_days",
  {
    profileId: integer("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    /** YYYY-MM-DD in the site's time zone. */
    day: text("day").notNull(),
    likes: integer("likes").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.profileId, t.day] })],
);

/** Profiles a member passed in the swipe game, and on which day: they do not come back that day. */
export const swipePasses = sqliteTable(
  "swipe_passes",
  {
    profileId: integer("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    passedId: integer("passed_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    day: text("day").notNull(),
  },
  (t) => [primaryKey({ columns: [t.profileId, t.passedId] })],
);

/** The like rate limit: likes a member gave in the current window (one row per member). */
export const likeRate = sqliteTable("like_rate", {
  profileId: integer("profile_id")
    .primaryKey()
    .references(() => profiles.id, { onDelete: "cascade" }),
  windowStart: integer("window_start").notNull(),
  likes: integer("likes").notNull(),
});

export const blocks = sqliteTable(
  "blocks",
  {
    blockerId: integer("blocker_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    blockedId: integer("blocked_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.blockerId, t.blockedId] }), index("blocks_blocked_idx").on(t.blockedId)],
);

/**
 * One conversation per pair of profiles: `profile_a` is the lower profile id, `profile_b` the higher.
 * Created by the pair's Durable Object (server/chat/conversation-room.ts) on the first message. The
 * messages themselves live in that object's own storage (db/conversation-store.ts); D1 keeps the
 * summary the chat list shows and what the send's charge is checked against.
 */
export const conversations = sqliteTable(
  "conversations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    profileA: integer("profile_a"),
    profileB: integer("profile_b"),
    /** The profile that sent the first message. */
    startedBy: integer("started_by"),
    createdAt: integer("created_at").notNull().default(now),
    lastMessageAt: integer("last_message_at"),
    /** The newest message recorded here (its id in the object); only ever grows (trigger conversations_message_once). */
    lastMessageId: integer("last_message_id"),
    lastMessageSenderId: integer("last_message_sender_id"),
    /** text | image | gift */
    lastMessageKind: text("last_message_kind"),
    /** The start of the last text message, as the chat list shows it. */
    lastMessagePreview: text("last_message_preview"),
    /** Which write recorded the last message: the rest of that write's batch runs only under it. */
    lastMessageWrite: text("last_message_write"),
  },
  (t) => [uniqueIndex("conversations_pair_idx").on(t.profileA, t.profileB)],
);

export const conversationMembers = sqliteTable(
  "conversation_members",
  {
    conversationId: integer("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    profileId: integer("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    unreadCount: integer("unread_count").notNull().default(0),
    /** Copied from the conversation so a member's chat list is one index range. */
    lastMessageAt: integer("last_message_at"),
    removedAt: integer("removed_at"),
    /** Messages up to this id were removed for this member (DELETE /api/chat.php); history starts after it. */
    hiddenBeforeId: integer("hidden_before_id").notNull().default(0),
    /** Free messages this member sent here (SPEC §1 allowance: free_conversations x free_messages). */
    freeMessagesUsed: integer("free_messages_used").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.conversationId, t.profileId] }),
    index("conversation_members_profile_idx").on(t.profileId, t.lastMessageAt),
  ],
);

/**
 * Photos sent in a chat: the same three variants as profile photos (original, thumbnail, blurred)
 * under unguessable keys with a `c` before the variant's letter. Not part of the profile; the
 * original reaches the sender and premium members of a conversation it was sent in.
 */
export const chatPhotos = sqliteTable(
  "chat_photos",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    profileId: integer("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    thumbKey: text("thumb_key").notNull(),
    blurKey: text("blur_key").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    /** The first conversation it was sent in (whether it was sent at all); null while unsent. */
    sentInConversationId: integer("sent_in_conversation_id"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [
    uniqueIndex("chat_photos_key_idx").on(t.key),
    uniqueIndex("chat_photos_thumb_key_idx").on(t.thumbKey),
    uniqueIndex("chat_photos_blur_key_idx").on(t.blurKey),
    index("chat_photos_profile_idx").on(t.profileId),
  ],
);

export const creditLedger = sqliteTable(
  "credit_ledger",
  {
    id: integer("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    delta: integer("delta").notNull(),
    /** signup | purchase | message | photo | gift | refund | reversal | bonus */
    reason: text("reason").notNull(),
    /**
     * What the entry is about: "order:<id>"; "chat:<conversation id>:<sender profile id>:<YYYY-MM-DD>" for a
     * member's chat charges in one conversation on one UTC day (reason "chat", migration 0021); rows
     * written before that: "chat:<conversation id>:<message id>", one per message (before those: "message:<id>").
     */
    ref: text("ref"),
    createdAt: integer("created_at").notNull().default(now),
    /** A rolled-up chat row: how many messages its charges are. */
    messages: integer("messages"),
    /** A rolled-up chat row: the highest message id of the conversation charged in it (docs/decisions/0033). */
    throughMessageId: integer("through_message_id"),
  },
  (t) => [
    index("credit_ledger_user_idx").on(t.userId, t.createdAt),
    // The last guard against doubles: one purchase, refund or reversal row per order, one row per
    // member, conversation and day of chat charges (whose watermark guards each message).
    uniqueIndex("credit_ledger_reason_ref_idx")
      .on(t.reason, t.ref)
      .where(sql`ref IS NOT NULL`),
  ],
);

export const orders = sqliteTable(
  "orders",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The site the order was placed on: its company issues the receipt. */
    siteDomain: text("site_domain").notNull().default(""),
    bundleId: integer("bundle_id").notNull().default(0),
    credits: integer("credits").notNull(),
    /** Total charged, VAT included, in minor units of `currency`. */
    amountCents: integer("amount_cents").notNull(),
    vatCents: integer("vat_cents").notNull().default(0),
    /** For the discounts issue: minor units taken off the bundle's price. */
    discountCents: integer("discount_cents").notNull().default(0),
    currency: text("currency").notNull(),
    discountCodeId: integer("discount_code_id"),
    /** The discount code applied (upper case), TIMEBONUS25 and WELCOME25 included; null without one. */
    discountCode: text("discount_code"),
    /**
     * What the discount is used up under when its code is once per member (services/discounts.ts
     * `onceKeyOf`): the code itself, or "first-purchase" for the time bonus and the welcome discount,
     * which are alternatives; null when the code may be used again.
     */
    discountKey: text("discount_key"),
    paymentMethod: text("payment_method").notNull(),
    /** The method the member actually paid with, as the provider reports it (a repeat on a mandate has no method of its own). */
    paidMethod: text("paid_method"),
    /** The provider's Idempotency-Key of this order's payment attempt: a UUID v4, never reused. */
    idempotencyKey: text("idempotency_key"),
    country: text("country").notNull(),
    /** The latest payment's status (open ... paid, failed, canceled, expired), or refunded / reversed. */
    status: text("status").notNull().default("open"),
    /** Set in the same batch that adds the credits: an order is credited once. */
    creditedAt: integer("credited_at"),
    refundedAt: integer("refunded_at"),
    refundedCredits: integer("refunded_credits").notNull().default(0),
    refundedCents: integer("refunded_cents").notNull().default(0),
    createdAt: integer("created_at").notNull().default(now),
    updatedAt: integer("updated_at").notNull().default(now),
  },
  (t) => [
    index("orders_user_idx").on(t.userId, t.createdAt),
    // Migration 0029: the orders the clock looks at for an unanswered create.
    index("orders_unsettled_idx")
      .on(t.createdAt)
      .where(sql`status IN ('open', 'pending') AND credited_at IS NULL`),
  ],
);

export const payments = sqliteTable(
  "payments",
  {
    id: integer("id").primaryKey(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    /** The provider's id: callbacks are idempotent on it. */
    providerPaymentId: text("provider_payment_id").notNull(),
    /** open | pending | authorized | paid | failed | canceled | expired; only ever moves forward. */
    status: text("status").notNull(),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull(),
    method: text("method"),
    /** oneoff | first | recurring */
    sequenceType: text("sequence_type").notNull().default("oneoff"),
    checkoutUrl: text("checkout_url"),
    /** The provider's last status word when the app does not know it: recorded, never acted on. */
    providerStatus: text("provider_status"),
    createdAt: integer("created_at").notNull().default(now),
    updatedAt: integer("updated_at").notNull().default(now),
  },
  (t) => [
    uniqueIndex("payments_provider_idx").on(t.provider, t.providerPaymentId),
    index("payments_order_idx").on(t.orderId),
  ],
);

/** A member's customer at the payment provider and the mandate a first payment left, for repeat orders. */
export const paymentCustomers = sqliteTable(
  "payment_customers",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    customerId: text("customer_id").notNull(),
    mandateId: text("mandate_id"),
    mandateMethod: text("mandate_method"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.userId, t.provider] })],
);

/**
 * Money that went back after an order was paid: refunds (asked for by the member, or made in the
 * provider's dashboard) and chargebacks. Each one takes its credits once (`taken_at`) and gives them
 * back once (`given_back_at`) when a refund fails or a chargeback is reversed.
 */
export const paymentAdjustments = sqliteTable(
  "payment_adjustments",
  {
    id: integer("id").primaryKey(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** refund | chargeback */
    kind: text("kind").notNull(),
    /** member (asked in the app) | support (asked for the member by an operator) | provider (dashboard, bank) */
    origin: text("origin").notNull(),
    /** The provider's id (re_…, chb_…); null while a member's refund request has no answer yet. */
    providerId: text("provider_id"),
    /** The Idempotency-Key of a member's refund request (UUID v4). */
    idempotencyKey: text("idempotency_key"),
    /** A refund's status at the provider (requested, queued, pending, processing, refunded, failed, canceled); received or reversed for a chargeback. */
    status: text("status").notNull(),
    amountCents: integer("amount_cents").notNull(),
    credits: integer("credits").notNull().default(0),
    takenAt: integer("taken_at"),
    givenBackAt: integer("given_back_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    /** A member's refund request: the description it was sent with, sent again with its key (migration 0030). */
    description: text("description"),
  },
  (t) => [
    uniqueIndex("payment_adjustments_provider_idx")
      .on(t.kind, t.providerId)
      .where(sql`provider_id IS NOT NULL`),
    uniqueIndex("payment_adjustments_key_idx")
      .on(t.idempotencyKey)
      .where(sql`idempotency_key IS NOT NULL`),
    index("payment_adjustments_order_idx").on(t.orderId),
    index("payment_adjustments_unanswered_idx")
      .on(t.createdAt)
      .where(sql`provider_id IS NULL AND given_back_at IS NULL`),
  ],
);

/**
 * The events a provider's signed webhook delivered (Mollie's next-gen webhooks, docs/decisions/0054),
 * kept by the provider's event id: a repeated delivery is known, handled_at set once it took effect.
 */
export const providerEvents = sqliteTable(
  "provider_events",
  {
    provider: text("provider").notNull(),
    eventId: text("event_id").notNull(),
    type: text("type").notNull(),
    entityId: text("entity_id").notNull(),
    receivedAt: integer("received_at").notNull(),
    handledAt: integer("handled_at"),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] }), index("provider_events_received_idx").on(t.receivedAt)],
);

/** The offline provider's own record of its payments (development and tests only). */
export const sandboxPayments = sqliteTable("sandbox_payments", {
  id: text("id").primaryKey(),
  status: text("status").notNull().default("open"),
  amountCents: integer("amount_cents").notNull(),
  currency: text("currency").notNull(),
  method: text("method"),
  description: text("description").notNull(),
  redirectUrl: text("redirect_url").notNull(),
  webhookUrl: text("webhook_url").notNull(),
  customerId: text("customer_id"),
  mandateId: text("mandate_id"),
  sequenceType: text("sequence_type").notNull().default("oneoff"),
  refundedCents: integer("refunded_cents").notNull().default(0),
  createdAt: integer("created_at").notNull().default(now),
});

/** Direct debit (SPEC §3): the account a member authorised; blocked after a reversal. */
export const directDebitAccounts = sqliteTable("direct_debit_accounts", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  accountHolder: text("account_holder").notNull(),
  iban: text("iban").notNull(),
  street: text("street").notNull(),
  houseNumber: text("house_number").notNull(),
  postalCode: text("postal_code").notNull(),
  city: text("city").notNull(),
  mobile: text("mobile").notNull(),
  /** pending (waiting for its SMS code) | active | blocked */
  status: text("status").notNull().default("pending"),
  createdAt: integer("created_at").notNull().default(now),
});

/** One-time SMS codes: stored hashed, with an expiry and a count of wrong tries. */
export const smsCodes = sqliteTable(
  "sms_codes",
  {
    id: integer("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose").notNull(),
    codeHash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [index("sms_codes_user_idx").on(t.userId, t.purpose)],
);

export const outgoingSms = sqliteTable(
  "outgoing_sms",
  {
    id: integer("id").primaryKey(),
    toNumber: text("to_number").notNull(),
    text: text("text").notNull(),
    createdAt: integer("created_at").notNull().default(now),
    sentAt: integer("sent_at"),
    providerId: text("provider_id"),
    /** The destination's country (ISO 3166 alpha-2), for the hourly limit per country; null before migration 0018. */
    country: text("country"),
    /** The provider's last delivery report for it (Sinch's status: Delivered, Failed, Expired ...). */
    deliveryStatus: text("delivery_status"),
    statusAt: integer("status_at"),
  },
  (t) => [
    index("outgoing_sms_to_idx").on(t.toNumber, t.createdAt),
    index("outgoing_sms_country_idx").on(t.country, t.createdAt),
    index("outgoing_sms_provider_idx").on(t.providerId),
  ],
);

export const discountCodes = sqliteTable(
  "discount_codes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    code: text("code").notNull(),
    percentage: integer("percentage").notNull(),
    minimumCents: integer("minimum_cents").notNull().default(0),
    currency: text("currency"),
    country: text("country"),
    /** Set for a personal code such as the time bonus. */
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at"),
    /** active | inactive */
    status: text("status").notNull().default("active"),
    /** once_per_user | unlimited */
    validity: text("validity").notNull().default("once_per_user"),
    /** JSON array of payment methods, or null for all. */
    paymentMethods: text("payment_methods"),
  },
  (t) => [index("discount_codes_code_idx").on(t.code, t.country), index("discount_codes_user_idx").on(t.userId)],
);

/**
 * A once-per-member discount a member has used: written in the batch that credits the paid order,
 * so of two orders racing with the same code only one records it (the unique index decides).
 */
export const discountUses = sqliteTable(
  "discount_uses",
  {
    id: integer("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The order's `discount_key`: the code in upper case, or "first-purchase" for the time bonus and the welcome discount. */
    code: text("code").notNull(),
    orderId: integer("order_id").notNull(),
    usedAt: integer("used_at").notNull(),
  },
  (t) => [uniqueIndex("discount_uses_user_code_idx").on(t.userId, t.code)],
);

/**
 * A once-per-member discount held by an order being paid: inserted in the same batch as the order,
 * and the order only when the hold was (the unique index on member and key decides between racing
 * orders). It lapses at `held_until`, or when its order failed, so an abandoned checkout frees it.
 */
export const discountHolds = sqliteTable(
  "discount_holds",
  {
    id: integer("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    onceKey: text("once_key").notNull(),
    /** Names the attempt that took the hold, so its batch inserts the order only when it was this one. */
    token: text("token").notNull(),
    orderId: integer("order_id"),
    heldUntil: integer("held_until").notNull(),
  },
  (t) => [
    uniqueIndex("discount_holds_user_key_idx").on(t.userId, t.onceKey),
    uniqueIndex("discount_holds_token_idx").on(t.token),
  ],
);

export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull().default(now),
    expiresAt: integer("expires_at").notNull(),
    revokedAt: integer("revoked_at"),
    /** The id the sessions list shows and ends a session by; the row id is in the cookie and never leaves it. */
    publicId: text("public_id"),
    /** "browser/system" read from the User-Agent at login (shared/devices.ts); never the raw header or an address. */
    device: text("device"),
    /** When a request last used the session, written at most every SESSION_TOUCH_SECONDS. */
    lastUsedAt: integer("last_used_at"),
  },
  (t) => [index("sessions_user_idx").on(t.userId), uniqueIndex("sessions_public_id_idx").on(t.publicId)],
);

/**
 * Single-use links sent by mail: account activation, password reset, e-mail change, reactivation.
 * Only a SHA-256 hash of the token is stored, so the table cannot be used to log in.
 */
export const authTokens = sqliteTable(
  "auth_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** activation | password_reset | mail_change | reactivation */
    kind: text("kind").notNull(),
    /** The new address of a mail change. */
    data: text("data"),
    createdAt: integer("created_at").notNull().default(now),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
  },
  (t) => [index("auth_tokens_user_idx").on(t.userId, t.kind, t.createdAt)],
);

export const loginAttempts = sqliteTable("login_attempts", {
  /** "user:<id>" or "ip:<address>" */
  key: text("key").primaryKey(),
  failures: integer("failures").notNull().default(0),
  windowStart: integer("window_start").notNull(),
  blockedUntil: integer("blocked_until"),
});

export const outgoingMail = sqliteTable(
  "outgoing_mail",
  {
    id: integer("id").primaryKey(),
    toAddress: text("to_address").notNull(),
    kind: text("kind").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html"),
    createdAt: integer("created_at").notNull().default(now),
    sentAt: integer("sent_at"),
    providerId: text("provider_id"),
    /** Extra headers of the mail as JSON (List-Unsubscribe of notification mail), null when none. */
    headers: text("headers"),
  },
  (t) => [index("outgoing_mail_to_idx").on(t.toAddress, t.createdAt)],
);

/**
 * Complaints and reports (/complaints, the Report action of a profile and a chat), read and
 * decided by moderators in the console (or `npm run reports`, through it). `reporterKey` is "user:<id>" for a member and
 * "email:<address>" for a visitor; `targetKey` is "profile:<id>" or "message:<id>" when the report
 * names something, so one reporter reports one thing once (NULL targets never collide).
 */
export const reports = sqliteTable(
  "reports",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    reporterKey: text("reporter_key").notNull(),
    reporterUserId: integer("reporter_user_id").references(() => users.id, { onDelete: "set null" }),
    /** Where the confirmation goes: the member's account address or the address a visitor gave. */
    email: text("email").notNull(),
    /** One of REPORT_SUBJECTS (src/shared/reports.ts). */
    subject: text("subject").notNull(),
    description: text("description").notNull(),
    targetKey: text("target_key"),
    profileId: integer("profile_id"),
    messageId: integer("message_id"),
    siteDomain: text("site_domain").notNull(),
    language: text("language").notNull(),
    /** The caller's network address, only to limit how many reports one source files. */
    clientAddress: text("client_address").notNull(),
    /** open | resolved | rejected */
    status: text("status").notNull().default("open"),
    operatorNote: text("operator_note"),
    createdAt: integer("created_at").notNull().default(now),
    handledAt: integer("handled_at"),
    /** Art. 16(2) elements (migration 0037): NULL name = anonymous. */
    reporterName: text("reporter_name"),
    goodFaith: integer("good_faith", { mode: "boolean" }).notNull().default(false),
    /** One of the DSA Transparency Database's categories. */
    category: text("category"),
    /** illegal | terms */
    basis: text("basis"),
    /** The law concerned, for illegal content. */
    law: text("law"),
    /** The exact location (URL) of what is reported. */
    location: text("location"),
    photoId: integer("photo_id"),
    /** moderation (a notice about content) | support (a question about billing, the account, data), migration 0039. */
    queue: text("queue").notNull().default("moderation"),
  },
  (t) => [
    uniqueIndex("reports_once_idx").on(t.reporterKey, t.targetKey),
    index("reports_reporter_idx").on(t.reporterKey, t.createdAt),
    index("reports_address_idx").on(t.clientAddress, t.createdAt),
    index("reports_status_idx").on(t.queue, t.status, t.createdAt),
    index("reports_profile_idx").on(t.profileId),
  ],
);

/**
 * A member's notification choices (NotificationChoices as JSON), only once they changed one: a
 * member without a row has DEFAULT_NOTIFICATION_CHOICES, and a kind added later takes its default.
 */
export const notificationChoices = sqliteTable("notification_choices", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  choices: text("choices").notNull(),
  updatedAt: integer("updated_at").notNull().default(now),
});

/**
 * Why mail to a member stopped (SPEC §3 notifications_disabled, §4): a bounce or spam complaint
 * reported by the mail provider for `address` (it counts only while that is still the member's
 * address), or an unsubscribe from one kind of mail (`kind`; "" for bounce and complaint).
 */
export const mailStops = sqliteTable(
  "mail_stops",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** bounce | complaint | unsubscribe */
    reason: text("reason").notNull(),
    kind: text("kind").notNull().default(""),
    address: text("address"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.userId, t.reason, t.kind] })],
);

/** A conversation a member was mailed about while it stays unread: no second mail until they read it. */
export const unreadMailMarks = sqliteTable(
  "unread_mail_marks",
  {
    profileId: integer("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    conversationId: integer("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    mailedAt: integer("mailed_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.profileId, t.conversationId] })],
);

/** When the clock's mails last went to a member: unread-message reminder, weekly update, activation reminder. */
export const mailClock = sqliteTable("mail_clock", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  unreadReminderAt: integer("unread_reminder_at"),
  /** The newest unread message time the last reminder covered: a reminder is only for messages after it. */
  unreadRemindedUpTo: integer("unread_reminded_up_to"),
  weeklyUpdateAt: integer("weekly_update_at"),
  activationReminderAt: integer("activation_reminder_at"),
});

/**
 * Credits a conversation's object has set aside from a member's balance for their next paid
 * messages there, so it can acknowledge them before D1 hears of them (docs/decisions/0021). They
 * stay in `users.credits` (the balance the member sees and the ledger adds up to); no other
 * spending may take them (trigger users_credits_cover_holds). Only that conversation's object
 * changes its rows; it gives back what it does not use after a short idle time.
 */
export const chatCreditHolds = sqliteTable(
  "chat_credit_holds",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    conversationId: integer("conversation_id").notNull(),
    credits: integer("credits").notNull().default(0),
    updatedAt: integer("updated_at").notNull().default(now),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.conversationId] }),
    index("chat_credit_holds_conversation_idx").on(t.conversationId),
  ],
);

/**
 * The browsers a member subscribed to web push (several per member). The endpoint is the browser's
 * push resource, unique: the same browser logging in as another member moves the row. `sessionId`
 * is the login that stored it: a browser that logged out (or was logged out everywhere) gets no push.
 * Keys as the browser gave them (base64url): `p256dh` the 65-byte P-256 point, `auth` 16 bytes.
 */
export const pushSubscriptions = sqliteTable(
  "push_subscriptions",
  {
    id: integer("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sessionId: text("session_id"),
    endpoint: text("endpoint").notNull(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    /** The browser's own expiry (seconds), when it gave one. */
    expiresAt: integer("expires_at"),
    createdAt: integer("created_at").notNull().default(now),
    lastSuccessAt: integer("last_success_at"),
    /** Pushes the push service refused as too large (413) even shortened; the subscription is kept. */
    failures: integer("failures").notNull().default(0),
    /** The push service asked to wait (429 Retry-After): nothing is sent to it before this time. */
    retryAfter: integer("retry_after"),
  },
  (t) => [
    uniqueIndex("push_subscriptions_endpoint_idx").on(t.endpoint),
    index("push_subscriptions_user_idx").on(t.userId),
  ],
);

/** The VAPID public keys a push service refused as not the subscription's (403): logged once per key, that is per deployment. */
export const pushKeyMismatches = sqliteTable("push_key_mismatches", {
  publicKey: text("public_key").primaryKey(),
  firstAt: integer("first_at").notNull(),
});

/** Development and tests (PUSH_PROVIDER "outbox"): each push that would have been sent, shown at /dev/outbox. */
export const outgoingPush = sqliteTable(
  "outgoing_push",
  {
    id: integer("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    endpoint: text("endpoint").notNull(),
    /** The PushPayload as JSON. */
    payload: text("payload").notNull(),
    topic: text("topic"),
    urgency: text("urgency").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("outgoing_push_user_idx").on(t.userId, t.createdAt)],
);

/**
 * A verification selfie and its decision (docs/decisions/0040). `selfie_key` is the R2 object no
 * member route serves; it is null once the clock work deleted the object, 30 days after the decision.
 */
export const verifications = sqliteTable(
  "verifications",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    profileId: integer("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    siteDomain: text("site_domain").notNull(),
    /** selfie | photo_check (a new main photo of a verified member, against the selfie they took) */
    kind: text("kind").notNull().default("selfie"),
    /** One of VERIFICATION_POSES (src/shared/verification.ts). */
    pose: text("pose").notNull(),
    selfieKey: text("selfie_key"),
    /** The main photo when the selfie was taken (or the new one of a photo check). */
    photoId: integer("photo_id"),
    /** pending | approved | rejected */
    status: text("status").notNull().default("pending"),
    /** One of VERIFICATION_REJECTIONS when rejected. */
    reason: text("reason"),
    askedAt: integer("asked_at").notNull(),
    decidedAt: integer("decided_at"),
    /** The operator who decided. */
    decidedBy: text("decided_by"),
  },
  (t) => [
    index("verifications_queue_idx").on(t.status, t.askedAt),
    index("verifications_profile_idx").on(t.profileId, t.askedAt),
    index("verifications_decided_idx").on(t.decidedAt),
    index("verifications_site_idx").on(t.siteDomain, t.askedAt),
    uniqueIndex("verifications_waiting_idx")
      .on(t.profileId)
      .where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * The pose the server drew for a member's verification selfie (docs/decisions/0049, migration 0027):
 * the member's latest row, while unused and younger than VERIFICATION_POSE_SECONDS, is the only pose
 * a selfie is accepted for. `asked` rows are other poses the member asked for (counted a day).
 */
export const verificationPoses = sqliteTable(
  "verification_poses",
  {
    id: integer("id").primaryKey(),
    profileId: integer("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    pose: text("pose").notNull(),
    drawnAt: integer("drawn_at").notNull(),
    asked: integer("asked", { mode: "boolean" }).notNull().default(false),
    usedAt: integer("used_at"),
  },
  (t) => [index("verification_poses_profile_idx").on(t.profileId, t.drawnAt)],
);

/**
 * The operators of the console (docs/decisions/0034), known by the e-mail address Cloudflare Access
 * vouches for. Never deleted, only disabled, so the audit log keeps naming them.
 */
export const operators = sqliteTable(
  "operators",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** Lower case. */
    email: text("email").notNull(),
    /** active | disabled */
    status: text("status").notNull().default("active"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [uniqueIndex("operators_email_idx").on(t.email)],
);

/** An operator's roles, one row each: moderator | support | finance | admin (OPERATOR_ROLES of db/operators.ts). */
export const operatorRoles = sqliteTable(
  "operator_roles",
  {
    operatorId: integer("operator_id")
      .notNull()
      .references(() => operators.id, { onDelete: "cascade" }),
    role: text("role").notNull(),
  },
  (t) => [primaryKey({ columns: [t.operatorId, t.role] })],
);

/**
 * Every operator action, written in the same batch as the change it records. Append-only: triggers
 * of migration 0022 refuse any update or delete. `actor` is the operator's address as it was (or
 * "command:<name>" for an operator command run outside the console); `before` and `after` are JSON.
 */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey(),
    operatorId: integer("operator_id").references(() => operators.id),
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    targetKind: text("target_kind").notNull(),
    targetId: text("target_id").notNull(),
    before: text("before"),
    after: text("after"),
    reason: text("reason"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("audit_log_operator_idx").on(t.operatorId, t.id),
    index("audit_log_target_idx").on(t.targetKind, t.targetId, t.id),
  ],
);

/**
 * Every moderation decision (docs/decisions/0035): about a photo, a report or an appeal. One that
 * restricts the member (`restricts`) is their statement of reasons (DSA Art. 17), appealable once
 * until `appeal_until`. A photo or a report is decided once (unique indexes); ids are never reused
 * (docs/decisions/0048), and a decision left holding a waiting photo's or an open report's id is
 * detached first (`detached_photo_id`, `detached_report_id`).
 */
export const moderationDecisions = sqliteTable(
  "moderation_decisions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    profileId: integer("profile_id"),
    /** photo | report | appeal */
    source: text("source").notNull(),
    photoId: integer("photo_id"),
    reportId: integer("report_id"),
    appealId: integer("appeal_id"),
    /**
     * The photo or report a decision was about when a later one took its id (before ids were never
     * reused, migration 0026): the decision no longer names it in `photo_id` / `report_id`.
     */
    detachedPhotoId: integer("detached_photo_id"),
    detachedReportId: integer("detached_report_id"),
    /** One of DECISION_OUTCOMES (src/shared/moderation.ts). */
    outcome: text("outcome").notNull(),
    /** The rule of the terms it rests on, one of DECISION_GROUNDS. */
    ground: text("ground"),
    /** The facts, in the operator's words. */
    facts: text("facts"),
    restricts: integer("restricts", { mode: "boolean" }).notNull().default(false),
    automated: integer("automated", { mode: "boolean" }).notNull().default(false),
    language: text("language").notNull(),
    operatorId: integer("operator_id")
      .notNull()
      .references(() => operators.id),
    createdAt: integer("created_at").notNull(),
    appealUntil: integer("appeal_until"),
    /**
     * What the decision removed or changed, as JSON (KeptContent, services/moderation.ts), so a
     * reversed appeal restores it exactly and the appeal's reviewer sees it (migration 0035). Cleared
     * once no appeal can come or is open (services/retention.ts).
     */
    keptContent: text("kept_content"),
    /** What was done (migration 0037): remove_item, remove_all, warn, restrict_chat, restrict_search, suspend, disable, delete, refuse_photo, refuse_verification, none. */
    measure: text("measure"),
    /** notice | own_initiative | authority_order (Art. 17(3)(b)). */
    initiative: text("initiative").notNull().default("notice"),
    /** Whether automated means detected what was decided (Art. 17(3)(c)). */
    detectionAutomated: integer("detection_automated", { mode: "boolean" }).notNull().default(false),
    /** Which content, as JSON {"photo_ids":[..],"message_ids":[..],"text":true}. */
    contentScope: text("content_scope"),
    /** Which sites, as a JSON array of domains (empty: every site of the brand). */
    territorialScope: text("territorial_scope"),
    startsAt: integer("starts_at"),
    /** NULL: until lifted. */
    endsAt: integer("ends_at"),
    liftedAt: integer("lifted_at"),
    /** illegal | terms */
    basis: text("basis"),
    /** The law concerned, for illegal content. */
    legalGround: text("legal_ground"),
    /** The section of the site's terms and conditions. */
    termsClause: text("terms_clause"),
    /** The per-ground facts template chosen; `facts` are the moderator's own optional words. */
    factTemplate: text("fact_template"),
  },
  (t) => [
    index("moderation_decisions_user_idx").on(t.userId, t.id),
    index("moderation_decisions_profile_idx").on(t.profileId, t.id),
    index("moderation_decisions_created_idx").on(t.createdAt),
    uniqueIndex("moderation_decisions_photo_idx")
      .on(t.photoId)
      .where(sql`photo_id IS NOT NULL`),
    uniqueIndex("moderation_decisions_report_idx")
      .on(t.reportId)
      .where(sql`report_id IS NOT NULL`),
    uniqueIndex("moderation_decisions_appeal_idx")
      .on(t.appealId)
      .where(sql`appeal_id IS NOT NULL`),
  ],
);

/** A member's appeal of a decision (DSA Art. 20): one per decision, decided by another operator. */
export const appeals = sqliteTable(
  "appeals",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    decisionId: integer("decision_id")
      .notNull()
      .references(() => moderationDecisions.id, { onDelete: "cascade" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    text: text("text").notNull(),
    /** open | upheld | reversed */
    status: text("status").notNull().default("open"),
    createdAt: integer("created_at").notNull(),
    decidedBy: integer("decided_by").references(() => operators.id),
    decidedAt: integer("decided_at"),
    note: text("note"),
    /** Filed by the notifier against the dismissal of their notice, not by the member (migration 0039). */
    byNotifier: integer("by_notifier", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [uniqueIndex("appeals_decision_idx").on(t.decisionId), index("appeals_status_idx").on(t.status, t.createdAt)],
);

/**
 * An operator's request that a second operator must confirm (migration 0036, docs/decisions/0060):
 * what (action, target, a summary in words and the details the action runs with as JSON), who asked,
 * why and when, until when it may be confirmed, and what became of it.
 */
export const operatorRequests = sqliteTable(
  "operator_requests",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    action: text("action").notNull(),
    targetKind: text("target_kind").notNull(),
    targetId: text("target_id").notNull(),
    /** The role the confirming operator needs. */
    role: text("role").notNull(),
    summary: text("summary").notNull(),
    details: text("details").notNull(),
    reason: text("reason").notNull(),
    requestedBy: integer("requested_by")
      .notNull()
      .references(() => operators.id),
    requestedAt: integer("requested_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    /** waiting | confirmed | declined | expired | failed */
    status: text("status").notNull().default("waiting"),
    decidedBy: integer("decided_by").references(() => operators.id),
    decidedAt: integer("decided_at"),
    /** What happened on confirmation when it failed, or the reason of a decline. */
    outcome: text("outcome"),
  },
  (t) => [
    uniqueIndex("operator_requests_waiting_idx")
      .on(t.action, t.targetKind, t.targetId)
      .where(sql`status = 'waiting'`),
    index("operator_requests_status_idx").on(t.status, t.requestedAt),
  ],
);

/**
 * A restricting decision's statement of reasons as submitted to the DSA Transparency Database
 * (migration 0040, docs/decisions/0063): made by the submission job, retried until accepted, with
 * the id the database answered. Held by one run of the job at a time (`claimedUntil`).
 */
export const transparencySubmissions = sqliteTable(
  "transparency_submissions",
  {
    decisionId: integer("decision_id")
      .primaryKey()
      .references(() => moderationDecisions.id, { onDelete: "cascade" }),
    companyId: text("company_id").notNull(),
    /** The platform's unique id of the statement (`puid`). */
    puid: text("puid").notNull(),
    /** waiting | accepted | outside_union */
    state: text("state").notNull().default("waiting"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at").notNull(),
    claimedUntil: integer("claimed_until"),
    /** The HTTP status of the last attempt (0: no answer). */
    lastStatus: integer("last_status"),
    /** What the last refusal or failure said. */
    lastError: text("last_error"),
    /** The database's id of the statement, once accepted. */
    uuid: text("uuid"),
    submittedAt: integer("submitted_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("transparency_submissions_due_idx").on(t.state, t.nextAttemptAt)],
);

/** A dispute taken to a certified out-of-court body (DSA Art. 21), for the transparency report. */
export const outOfCourtDisputes = sqliteTable(
  "out_of_court_disputes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    decisionId: integer("decision_id").references(() => moderationDecisions.id, { onDelete: "set null" }),
    siteDomain: text("site_domain").notNull(),
    body: text("body").notNull(),
    receivedAt: integer("received_at").notNull(),
    /** complainant | provider | settled | withdrawn; NULL while open. */
    outcome: text("outcome"),
    closedAt: integer("closed_at"),
    /** Whether the company carried out the body's decision. */
    implemented: integer("implemented", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [index("out_of_court_disputes_received_idx").on(t.receivedAt)],
);

/** Who used the service in a calendar month (UTC, "YYYY-MM"), for Art. 24(2)'s monthly active recipients. */
export const activeMonths = sqliteTable(
  "active_months",
  {
    month: text("month").notNull(),
    userId: integer("user_id").notNull(),
    siteDomain: text("site_domain").notNull(),
    /** The profile's country when the month's first use was recorded. */
    country: text("country").notNull(),
  },
  (t) => [primaryKey({ columns: [t.month, t.userId] })],
);
