/** Outgoing mail and SMS (outgoing_mail, outgoing_sms): everything the site sends, which locally is the outbox. */
import { and, desc, eq, sql } from "drizzle-orm";
import type { Database } from "./database";
import { outgoingMail, outgoingSms } from "./schema";

type OutgoingMail = typeof outgoingMail.$inferSelect;

export async function recordMail(
  db: Database,
  mail: Pick<OutgoingMail, "toAddress" | "kind" | "subject" | "text" | "html"> &
    Partial<Pick<OutgoingMail, "sentAt" | "providerId" | "headers">>,
): Promise<void> {
  await db.insert(outgoingMail).values(mail);
}

/** The latest mails, newest first, to one address or to anyone. */
export async function latestMails(db: Database, to: string | undefined, limit: number): Promise<OutgoingMail[]> {
  return db
    .select()
    .from(outgoingMail)
    .where(to ? eq(outgoingMail.toAddress, to) : undefined)
    .orderBy(desc(outgoingMail.id))
    .limit(limit);
}

/**
 * Keep an SMS for a destination country unless `limit` went to that country in the hour before
 * `now`: one statement, so concurrent sends cannot pass the limit together. Answers the row's id, or
 * null when the limit is reached.
 */
export async function reserveSms(
  db: Database,
  sms: { to: string; text: string; country: string },
  limit: number,
  now: number,
): Promise<number | null> {
  const row = await db.get<{ id: number } | undefined>(sql`
    INSERT INTO ${outgoingSms} (to_number, text, country, created_at)
    SELECT ${sms.to}, ${sms.text}, ${sms.country}, ${now}
    WHERE (SELECT count(*) FROM ${outgoingSms} WHERE country = ${sms.country} AND created_at > ${now - 3600}) < ${limit}
    RETURNING id`);
  return row?.id ?? null;
}

/** The provider took the SMS: its id, for the delivery reports. */
export async function markSmsSent(db: Database, id: number, providerId: string, now: number): Promise<void> {
  await db.update(outgoingSms).set({ sentAt: now, providerId }).where(eq(outgoingSms.id, id));
}

/**
 * A delivery report for an SMS we sent (our row id, the provider's id and the recipient must all
 * match); answers whether that SMS is known. The same report again, a retry of Sinch's or a replay,
 * changes nothing: the status is written only when it is not the one already recorded. The SMS is
 * looked up first, so the caller must read the primary (PROVIDER_CALLBACKS): a replica that has not
 * seen the row yet would call a report on a just-sent SMS unknown.
 */
export async function recordSmsStatus(
  db: Database,
  report: { id: number; providerId: string; to: string; status: string },
  now: number,
): Promise<boolean> {
  const sms = and(
    eq(outgoingSms.id, report.id),
    eq(outgoingSms.providerId, report.providerId),
    eq(outgoingSms.toNumber, report.to),
  );
  const known = await db.select({ id: outgoingSms.id }).from(outgoingSms).where(sms).get();
  if (!known) return false;
  await db
    .update(outgoingSms)
    .set({ deliveryStatus: report.status, statusAt: now })
    .where(and(sms, sql`${outgoingSms.deliveryStatus} IS NOT ${report.status}`))
    .run();
  return true;
}

/** The SMS outbox, newest first (development page, tests). */
export function listSms(db: Database, limit = 50) {
  return db.select().from(outgoingSms).orderBy(desc(outgoingSms.id)).limit(limit).all();
}
