/**
 * Notification choices and mail stops (notification_choices, mail_stops): what a member asked to
 * be told of, and why mail to them stopped (SPEC §3 notifications_disabled, §4).
 */
import { and, eq, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import {
  DEFAULT_NOTIFICATION_CHOICES,
  EMAIL_KINDS,
  PUSH_KINDS,
  type EmailKind,
  type MailStopReason,
  type NotificationChoices,
  type PushKind,
} from "../../shared/notifications";
import type { Database } from "./database";
import { mailStops, notificationChoices, users } from "./schema";

/** A stored choice set over the defaults: only known kinds with boolean values count, so a kind added later takes its default. */
function choicesFrom(json: string | null | undefined): NotificationChoices {
  const choices = structuredClone(DEFAULT_NOTIFICATION_CHOICES);
  if (!json) return choices;
  let stored: Partial<Record<"email" | "push" | "previews", unknown>>;
  try {
    stored = JSON.parse(json) as typeof stored;
  } catch {
    return choices;
  }
  const email = (stored.email ?? {}) as Record<string, unknown>;
  const push = (stored.push ?? {}) as Record<string, unknown>;
  for (const kind of EMAIL_KINDS) if (typeof email[kind] === "boolean") choices.email[kind] = email[kind];
  for (const kind of PUSH_KINDS) if (typeof push[kind] === "boolean") choices.push[kind] = push[kind];
  if (typeof stored.previews === "boolean") choices.previews = stored.previews;
  return choices;
}

/** The member's notification choices (the defaults until they change one). */
export async function notificationChoicesOf(db: Database, userId: number): Promise<NotificationChoices> {
  const row = await db
    .select({ choices: notificationChoices.choices })
    .from(notificationChoices)
    .where(eq(notificationChoices.userId, userId))
    .get();
  return choicesFrom(row?.choices);
}

/** One switch: where it sits in NotificationChoices and whether it is on. */
export type ChoiceChange =
  | { kind: "email"; name: EmailKind; on: boolean }
  | { kind: "push"; name: PushKind; on: boolean }
  | { kind: "previews"; on: boolean };

const pathOf = (change: ChoiceChange) =>
  change.kind === "previews" ? "$.previews" : `$.${change.kind}.${change.name}`;

/**
 * The statement that turns switches on or off (at least one): a new row is the defaults with the changes, an
 * existing one is changed in place (json_set), so two changes at once never undo each other.
 */
function storeChanges(db: Database, userId: number, changes: readonly ChoiceChange[], now: number) {
  const fresh = structuredClone(DEFAULT_NOTIFICATION_CHOICES);
  for (const change of changes) {
    if (change.kind === "previews") fresh.previews = change.on;
    else if (change.kind === "email") fresh.email[change.name] = change.on;
    else fresh.push[change.name] = change.on;
  }
  const paths = changes.map((change) => sql`${pathOf(change)}, json(${change.on ? "true" : "false"})`);
  return db
    .insert(notificationChoices)
    .values({ userId, choices: JSON.stringify(fresh), updatedAt: now })
    .onConflictDoUpdate({
      target: notificationChoices.userId,
      set: { choices: sql`json_set(${notificationChoices.choices}, ${sql.join(paths, sql`, `)})`, updatedAt: now },
    });
}

/**
 * Turn the member's switches on or off. An e-mail kind turned on takes back an unsubscribe from it,
 * and `resumeMail` (the member asking to be mailed again) takes back bounces and complaints, in the
 * same batch as the switches.
 */
export async function saveNotificationChoices(
  db: Database,
  userId: number,
  changes: readonly ChoiceChange[],
  now: number,
  resumeMail = false,
): Promise<void> {
  const on = changes.flatMap((change) => (change.kind === "email" && change.on ? [change.name] : []));
  const statements: BatchItem<"sqlite">[] = [];
  if (changes.length) statements.push(storeChanges(db, userId, changes, now));
  if (on.length)
    statements.push(
      db
        .delete(mailStops)
        .where(and(eq(mailStops.userId, userId), eq(mailStops.reason, "unsubscribe"), inArray(mailStops.kind, on))),
    );
  if (resumeMail)
    statements.push(db.delete(mailStops).where(and(eq(mailStops.userId, userId), ne(mailStops.reason, "unsubscribe"))));
  const [first, ...rest] = statements;
  if (first) await db.batch([first, ...rest]);
}

/** An unsubscribe from one kind of mail: the kind turned off and the reason kept, in one batch. */
export async function unsubscribeFromKind(db: Database, userId: number, kind: EmailKind, now: number): Promise<void> {
  await db.batch([
    storeChanges(db, userId, [{ kind: "email", name: kind, on: false }], now),
    db.insert(mailStops).values({ userId, reason: "unsubscribe", kind, createdAt: now }).onConflictDoNothing(),
  ]);
}

/**
 * A bounce or complaint for an address stops mail to the account that has it. Idempotent: the
 * same report again changes nothing; a report for a new address of the member replaces the old one.
 * Answers how many accounts it stopped (0 or 1).
 */
export async function stopMailTo(
  db: Database,
  address: string,
  reason: Exclude<MailStopReason, "unsubscribe">,
  now: number,
): Promise<number> {
  const account = await db.select({ id: users.id }).from(users).where(eq(users.email, address)).get();
  if (!account) return 0;
  await db
    .insert(mailStops)
    .values({ userId: account.id, reason, kind: "", address, createdAt: now })
    .onConflictDoUpdate({
      target: [mailStops.userId, mailStops.reason, mailStops.kind],
      set: { address, createdAt: now },
      setWhere: sql`${mailStops.address} IS NOT ${address}`,
    });
  return 1;
}

/**
 * A stop that holds: an unsubscribe always; a bounce or complaint only while the member still has
 * the address it was reported for (a changed, confirmed address starts clean).
 */
const stopHolds: SQL = or(eq(mailStops.reason, "unsubscribe"), eq(mailStops.address, users.email))!;

export type MailStop = { reason: MailStopReason; kind: EmailKind | null; since: number };

/** The member's mail stops that hold, oldest first. */
export async function mailStopsOf(db: Database, userId: number): Promise<MailStop[]> {
  const rows = await db
    .select({ reason: mailStops.reason, kind: mailStops.kind, since: mailStops.createdAt })
    .from(mailStops)
    .innerJoin(users, eq(users.id, mailStops.userId))
    .where(and(eq(mailStops.userId, userId), stopHolds))
    .orderBy(mailStops.createdAt, mailStops.reason, mailStops.kind)
    .all();
  return rows.map((row) => ({
    reason: row.reason as MailStopReason,
    kind: row.kind ? (row.kind as EmailKind) : null,
    since: row.since,
  }));
}

/** SQL: the account `userId` has no bounce or complaint that holds (the product may mail it on its own). */
export function mailReachable(userId: SQL | typeof users.id = users.id): SQL {
  return sql`NOT EXISTS (SELECT 1 FROM ${mailStops} WHERE ${mailStops.userId} = ${userId} AND ${mailStops.reason} != 'unsubscribe' AND ${mailStops.address} = ${users.email})`;
}
