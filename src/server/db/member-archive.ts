/**
 * The reads of a member's data export (GET /api/my-data.php). They cross every table family, so they
 * live together here; each leaves secrets out (password hash, session ids, token hashes).
 */
import { asc, eq, sql } from "drizzle-orm";
import type { Database } from "./database";
import { subscriptionsForExport } from "./push-subscriptions";
import {
  blocks,
  creditLedger,
  interests,
  likes,
  orders,
  outgoingMail,
  payments,
  photos,
  profileInterests,
  profiles,
  regions,
  sessions,
  users,
} from "./schema";

/** Everything held about a member but their messages, read in parallel. */
export async function memberArchive(db: Database, userId: number) {
  const profileId = db.select({ id: profiles.id }).from(profiles).where(eq(profiles.userId, userId));
  const ofProfile = sql`(${profileId})`;
  const account = {
    email: users.email,
    username: users.username,
    status: users.status,
    credits: users.credits,
    paid_user: users.paidUser,
    language: users.language,
    site_domain: users.siteDomain,
    invisible: users.invisible,
    signup_date: users.signupDate,
    terms_accepted_at: users.termsAcceptedAt,
    terms_version: users.termsVersion,
    deletion_requested_at: users.deletionRequestedAt,
    network: users.network,
    ref: users.ref,
    sub1: users.sub1,
    sub2: users.sub2,
    sub3: users.sub3,
    last_active_at: users.lastActiveAt,
  };
  const order = {
    id: orders.id,
    credits: orders.credits,
    amount_cents: orders.amountCents,
    currency: orders.currency,
    payment_method: orders.paymentMethod,
    country: orders.country,
    status: orders.status,
    created_at: orders.createdAt,
  };
  const payment = {
    order_id: payments.orderId,
    provider: payments.provider,
    status: payments.status,
    amount_cents: payments.amountCents,
    currency: payments.currency,
    created_at: payments.createdAt,
  };
  const [
    accountRow,
    profile,
    interestRows,
    photoRows,
    likesGiven,
    likesReceived,
    blockRows,
    credits,
    orderRows,
    paymentRows,
    sessionRows,
    mails,
    pushSubscriptionRows,
  ] = await Promise.all([
    db.select(account).from(users).where(eq(users.id, userId)).get(),
    db
      .select({
        id: profiles.id,
        name: profiles.name,
        country: profiles.country,
        gender: profiles.gender,
        sexuality: profiles.sexuality,
        birth_date: profiles.birthDate,
        tattoos: profiles.tattoos,
        hair_color: profiles.hairColor,
        eye_color: profiles.eyeColor,
        body_type: profiles.bodyType,
        relationship_status: profiles.relationshipStatus,
        region: regions.name,
        city: profiles.city,
        about_me: profiles.aboutMe,
        status: profiles.status,
        created_at: profiles.createdAt,
      })
      .from(profiles)
      .leftJoin(regions, eq(regions.id, profiles.regionId))
      .where(eq(profiles.userId, userId))
      .get(),
    db
      .select({ slug: interests.slug })
      .from(profileInterests)
      .innerJoin(interests, eq(interests.id, profileInterests.interestId))
      .where(eq(profileInterests.profileId, ofProfile)),
    db
      .select({
        id: photos.id,
        status: photos.status,
        position: photos.position,
        width: photos.width,
        height: photos.height,
        created_at: photos.createdAt,
      })
      .from(photos)
      .where(eq(photos.profileId, ofProfile))
      .orderBy(asc(photos.position)),
    db
      .select({ profile_id: likes.likedId, created_at: likes.createdAt })
      .from(likes)
      .where(eq(likes.likerId, ofProfile)),
    db
      .select({ profile_id: likes.likerId, created_at: likes.createdAt })
      .from(likes)
      .where(eq(likes.likedId, ofProfile)),
    db
      .select({ profile_id: blocks.blockedId, created_at: blocks.createdAt })
      .from(blocks)
      .where(eq(blocks.blockerId, ofProfile)),
    db
      .select({
        delta: creditLedger.delta,
        reason: creditLedger.reason,
        ref: creditLedger.ref,
        messages: creditLedger.messages,
        created_at: creditLedger.createdAt,
      })
      .from(creditLedger)
      .where(eq(creditLedger.userId, userId))
      .orderBy(asc(creditLedger.id)),
    db.select(order).from(orders).where(eq(orders.userId, userId)).orderBy(asc(orders.id)),
    db
      .select(payment)
      .from(payments)
      .innerJoin(orders, eq(orders.id, payments.orderId))
      .where(eq(orders.userId, userId)),
    db
      .select({ created_at: sessions.createdAt, expires_at: sessions.expiresAt, revoked_at: sessions.revokedAt })
      .from(sessions)
      .where(eq(sessions.userId, userId))
      .orderBy(asc(sessions.createdAt)),
    db
      .select({ kind: outgoingMail.kind, subject: outgoingMail.subject, created_at: outgoingMail.createdAt })
      .from(outgoingMail)
      .where(eq(outgoingMail.toAddress, sql`(SELECT ${users.email} FROM ${users} WHERE ${users.id} = ${userId})`))
      .orderBy(asc(outgoingMail.id)),
    subscriptionsForExport(db, userId),
  ]);
  return {
    account: accountRow ?? null,
    profile: profile ?? null,
    interests: interestRows.map((i) => i.slug),
    photos: photoRows,
    likes: { given: likesGiven, received: likesReceived },
    blocks: blockRows,
    credits,
    orders: orderRows,
    payments: paymentRows,
    sessions: sessionRows,
    mails,
    push_subscriptions: pushSubscriptionRows,
  };
}
