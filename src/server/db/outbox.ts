/** Outgoing mail (outgoing_mail): every mail the site sends, which locally is the outbox. */
import { desc, eq } from "drizzle-orm";
import type { Database } from "./database";
import { outgoingMail } from "./schema";

export type OutgoingMail = typeof outgoingMail.$inferSelect;

export async function recordMail(db: Database, mail: Pick<OutgoingMail, "toAddress" | "kind" | "subject" | "text" | "html"> & Partial<Pick<OutgoingMail, "sentAt" | "providerId">>): Promise<void> {
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
