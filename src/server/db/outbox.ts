/** Outgoing mail and SMS (outgoing_mail, outgoing_sms): everything the site sends, which locally is the outbox. */
import { desc, eq, sql } from "drizzle-orm";
import type { Database } from "./database";
import { outgoingMail, outgoingSms } from "./schema";

type OutgoingMail = typeof outgoingMail.$inferSelect;

export async function recordMail(db: Database, mail: Pick<OutgoingMail, "toAddress" | "kind" | "subject" | "text" | "html"> & Partial<Pick<OutgoingMail, "sentAt" | "providerId" | "headers">>): Promise<void> {
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

export async function recordSms(db: Database, sms: { to: string; text: string }, providerId: string | null): Promise<void> {
  await db.insert(outgoingSms).values({ toNumber: sms.to, text: sms.text, ...(providerId ? { sentAt: sql`unixepoch()`, providerId } : {}) }).run();
}

/** The SMS outbox, newest first (development page, tests). */
export function listSms(db: Database, limit = 50) {
  return db.select().from(outgoingSms).orderBy(desc(outgoingSms.id)).limit(limit).all();
}
