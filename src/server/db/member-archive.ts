/**
 * The reads of a member's data export (GET /api/my-data.php). They cross every table family, so they
 * live together here; each leaves secrets out (password hash, session ids, token hashes).
 */
import { asc, eq, sql } from "drizzle-orm";
import type { Database } from "./database";
import { likesReceivedForExport } from "./likes";
import { subscriptionsForExport } from "./push-subscriptions";
import {
  activeMonths,
  appeals,
  authTokens,
  blocks,
  chatCreditHolds,
  chatPhotos,
  conversationMembers,
  creditLedger,
  directDebitAccounts,
  discountCodes,
  discountUses,
  interests,
  likes,
  mailClock,
  mailStops,
  moderationDecisions,
  orders,
  outgoingMail,
  paymentAdjustments,
  paymentCustomers,
  payments,
  photos,
  profileInterests,
  profiles,
  regions,
  sessions,
  swipePasses,
  users,
  verifications,
} from "./schema";

/**
 * Everything held about a member but their messages, read in parallel (docs/decisions/0050 says what
 * is left out and why: secrets, what is private to another member, the operators' own records).
 */
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
    verified_only: users.verifiedOnly,
    signup_date: users.signupDate,
    terms_accepted_at: users.termsAcceptedAt,
    terms_version: users.termsVersion,
    deletion_requested_at: users.deletionRequestedAt,
    confirmed_at: users.confirmedAt,
    restricted_at: users.restrictedAt,
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
    decisionRows,
    appealRows,
    verificationRows,
    adjustmentRows,
    customerRows,
    directDebitRow,
    discountCodeRows,
    discountUseRows,
    chatPhotoRows,
    conversationRows,
    holdRows,
    swipePassRows,
    linkRows,
    mailStopRows,
    mailClockRow,
    activeMonthRows,
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
        verified: profiles.verified,
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
    likesReceivedForExport(db, ofProfile),
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
      .select({
        device: sessions.device,
        created_at: sessions.createdAt,
        last_used_at: sessions.lastUsedAt,
        expires_at: sessions.expiresAt,
        revoked_at: sessions.revokedAt,
      })
      .from(sessions)
      .where(eq(sessions.userId, userId))
      .orderBy(asc(sessions.createdAt)),
    db
      .select({ kind: outgoingMail.kind, subject: outgoingMail.subject, created_at: outgoingMail.createdAt })
      .from(outgoingMail)
      .where(eq(outgoingMail.toAddress, sql`(SELECT ${users.email} FROM ${users} WHERE ${users.id} = ${userId})`))
      .orderBy(asc(outgoingMail.id)),
    subscriptionsForExport(db, userId),
    // The decisions about the member (their statements of reasons), without the operator who took them.
    db
      .select({
        id: moderationDecisions.id,
        source: moderationDecisions.source,
        photo_id: moderationDecisions.photoId,
        report_id: moderationDecisions.reportId,
        appeal_id: moderationDecisions.appealId,
        outcome: moderationDecisions.outcome,
        ground: moderationDecisions.ground,
        facts: moderationDecisions.facts,
        restricts: moderationDecisions.restricts,
        automated: moderationDecisions.automated,
        created_at: moderationDecisions.createdAt,
        appeal_until: moderationDecisions.appealUntil,
      })
      .from(moderationDecisions)
      .where(eq(moderationDecisions.userId, userId))
      .orderBy(asc(moderationDecisions.id)),
    db
      .select({
        id: appeals.id,
        decision_id: appeals.decisionId,
        text: appeals.text,
        status: appeals.status,
        note: appeals.note,
        created_at: appeals.createdAt,
        decided_at: appeals.decidedAt,
      })
      .from(appeals)
      .where(eq(appeals.userId, userId))
      .orderBy(asc(appeals.id)),
    // The selfie itself is not in the archive; `selfie_held` says whether it is still kept.
    db
      .select({
        id: verifications.id,
        kind: verifications.kind,
        pose: verifications.pose,
        photo_id: verifications.photoId,
        selfie_held: sql<boolean>`${verifications.selfieKey} IS NOT NULL`.mapWith(Boolean),
        status: verifications.status,
        reason: verifications.reason,
        asked_at: verifications.askedAt,
        decided_at: verifications.decidedAt,
      })
      .from(verifications)
      .where(eq(verifications.profileId, ofProfile))
      .orderBy(asc(verifications.id)),
    db
      .select({
        order_id: paymentAdjustments.orderId,
        kind: paymentAdjustments.kind,
        origin: paymentAdjustments.origin,
        status: paymentAdjustments.status,
        amount_cents: paymentAdjustments.amountCents,
        credits: paymentAdjustments.credits,
        taken_at: paymentAdjustments.takenAt,
        given_back_at: paymentAdjustments.givenBackAt,
        created_at: paymentAdjustments.createdAt,
      })
      .from(paymentAdjustments)
      .where(eq(paymentAdjustments.userId, userId))
      .orderBy(asc(paymentAdjustments.id)),
    db
      .select({
        provider: paymentCustomers.provider,
        customer_id: paymentCustomers.customerId,
        mandate: sql<boolean>`${paymentCustomers.mandateId} IS NOT NULL`.mapWith(Boolean),
        mandate_method: paymentCustomers.mandateMethod,
        created_at: paymentCustomers.createdAt,
      })
      .from(paymentCustomers)
      .where(eq(paymentCustomers.userId, userId)),
    db
      .select({
        account_holder: directDebitAccounts.accountHolder,
        iban: directDebitAccounts.iban,
        street: directDebitAccounts.street,
        house_number: directDebitAccounts.houseNumber,
        postal_code: directDebitAccounts.postalCode,
        city: directDebitAccounts.city,
        mobile: directDebitAccounts.mobile,
        status: directDebitAccounts.status,
        created_at: directDebitAccounts.createdAt,
      })
      .from(directDebitAccounts)
      .where(eq(directDebitAccounts.userId, userId))
      .get(),
    db
      .select({
        code: discountCodes.code,
        percentage: discountCodes.percentage,
        expires_at: discountCodes.expiresAt,
        status: discountCodes.status,
      })
      .from(discountCodes)
      .where(eq(discountCodes.userId, userId)),
    db
      .select({ code: discountUses.code, order_id: discountUses.orderId, used_at: discountUses.usedAt })
      .from(discountUses)
      .where(eq(discountUses.userId, userId)),
    db
      .select({
        id: chatPhotos.id,
        width: chatPhotos.width,
        height: chatPhotos.height,
        sent_in_conversation_id: chatPhotos.sentInConversationId,
        created_at: chatPhotos.createdAt,
      })
      .from(chatPhotos)
      .where(eq(chatPhotos.profileId, ofProfile))
      .orderBy(asc(chatPhotos.id)),
    db
      .select({
        conversation_id: conversationMembers.conversationId,
        unread: conversationMembers.unreadCount,
        free_messages_used: conversationMembers.freeMessagesUsed,
        removed_at: conversationMembers.removedAt,
        hidden_before_message_id: conversationMembers.hiddenBeforeId,
      })
      .from(conversationMembers)
      .where(eq(conversationMembers.profileId, ofProfile)),
    db
      .select({ conversation_id: chatCreditHolds.conversationId, credits: chatCreditHolds.credits })
      .from(chatCreditHolds)
      .where(eq(chatCreditHolds.userId, userId)),
    db
      .select({ profile_id: swipePasses.passedId, day: swipePasses.day })
      .from(swipePasses)
      .where(eq(swipePasses.profileId, ofProfile)),
    // Mailed links, without the token (only its hash is kept).
    db
      .select({
        kind: authTokens.kind,
        new_email: authTokens.data,
        created_at: authTokens.createdAt,
        expires_at: authTokens.expiresAt,
        used_at: authTokens.usedAt,
      })
      .from(authTokens)
      .where(eq(authTokens.userId, userId))
      .orderBy(asc(authTokens.createdAt)),
    db
      .select({ reason: mailStops.reason, kind: mailStops.kind, created_at: mailStops.createdAt })
      .from(mailStops)
      .where(eq(mailStops.userId, userId)),
    db
      .select({
        unread_reminder_at: mailClock.unreadReminderAt,
        weekly_update_at: mailClock.weeklyUpdateAt,
        activation_reminder_at: mailClock.activationReminderAt,
      })
      .from(mailClock)
      .where(eq(mailClock.userId, userId))
      .get(),
    // The months the member used the site, counted for the DSA's monthly active recipients (docs/decisions/0063).
    db
      .select({ month: activeMonths.month })
      .from(activeMonths)
      .where(eq(activeMonths.userId, userId))
      .orderBy(activeMonths.month),
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
    decisions: decisionRows,
    appeals: appealRows,
    verifications: verificationRows,
    payment_adjustments: adjustmentRows,
    payment_customers: customerRows,
    direct_debit: directDebitRow ?? null,
    discount_codes: discountCodeRows,
    discount_uses: discountUseRows,
    chat_photos: chatPhotoRows,
    conversations: conversationRows,
    credit_holds: holdRows,
    swipe_passes: swipePassRows,
    mailed_links: linkRows,
    mail_stops: mailStopRows,
    mail_clock: mailClockRow ?? null,
    active_months: activeMonthRows.map((row) => row.month),
  };
}
