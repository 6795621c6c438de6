/**
 * Everything held about a member, as one JSON archive they can download (beyond SPEC: the right to a
 * copy of one's data). Secrets are left out: the password hash, session ids and token hashes.
 */
export async function exportMemberData(db: D1Database, userId: number, chatMessages: (profileId: number) => Promise<unknown[]>): Promise<Record<string, unknown>> {
  const one = (sql: string) => db.prepare(sql).bind(userId).first();
  const all = async (sql: string) => (await db.prepare(sql).bind(userId).all()).results;
  const profileOf = "(SELECT id FROM profiles WHERE user_id = ?1)";
  const [account, profile, interests, photos, likesGiven, likesReceived, blocks, credits, orders, payments, notifications, sessions, mails] = await Promise.all([
    one(
      "SELECT email, username, status, credits, paid_user, language, site_domain, invisible, signup_date, terms_accepted_at, terms_version, deletion_requested_at, network, ref, sub1, sub2, sub3, last_active_at FROM users WHERE id = ?1",
    ),
    one(
      "SELECT id, name, country, gender, sexuality, birth_date, tattoos, hair_color, eye_color, body_type, relationship_status, (SELECT name FROM regions r WHERE r.id = region_id) AS region, city, about_me, status, created_at FROM profiles WHERE user_id = ?1",
    ),
    all(`SELECT i.slug FROM profile_interests pi JOIN interests i ON i.id = pi.interest_id WHERE pi.profile_id = ${profileOf}`),
    all(`SELECT id, status, position, width, height, created_at FROM photos WHERE profile_id = ${profileOf} ORDER BY position`),
    all(`SELECT liked_id AS profile_id, created_at FROM likes WHERE liker_id = ${profileOf}`),
    all(`SELECT liker_id AS profile_id, created_at FROM likes WHERE liked_id = ${profileOf}`),
    all(`SELECT blocked_id AS profile_id, created_at FROM blocks WHERE blocker_id = ${profileOf}`),
    all("SELECT delta, reason, ref, created_at FROM credit_ledger WHERE user_id = ?1 ORDER BY id"),
    all("SELECT id, credits, amount_cents, currency, payment_method, country, status, created_at FROM orders WHERE user_id = ?1 ORDER BY id"),
    all("SELECT p.order_id, p.provider, p.status, p.amount_cents, p.currency, p.created_at FROM payments p JOIN orders o ON o.id = p.order_id WHERE o.user_id = ?1"),
    all("SELECT kind, enabled FROM notification_preferences WHERE user_id = ?1"),
    all("SELECT created_at, expires_at, revoked_at FROM sessions WHERE user_id = ?1 ORDER BY created_at"),
    all("SELECT kind, subject, created_at FROM outgoing_mail WHERE to_address = (SELECT email FROM users WHERE id = ?1) ORDER BY id"),
  ]);
  // The messages live in each conversation's object.
  const messages = profile ? await chatMessages((profile as { id: number }).id) : [];
  return {
    exported_at: new Date().toISOString(),
    account,
    profile,
    interests: interests.map((i) => i.slug),
    photos,
    likes: { given: likesGiven, received: likesReceived },
    blocks,
    messages,
    credits,
    orders,
    payments,
    notification_preferences: notifications,
    sessions,
    mails,
  };
}
