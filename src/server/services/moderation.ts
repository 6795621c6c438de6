/**
 * Moderation decisions (docs/decisions/0035): a waiting photo approved or refused, a report decided,
 * an appeal filed and decided. Each decision is one D1 batch with its audit row and its effect on
 * the account; then the member concerned is told (a statement of reasons for every restriction, by
 * mail and on their decision page), the reporter learns the outcome, and a disabled member's
 * sessions and open pages end through the same calls the member side uses (decision 0025).
 * The console and the operator commands call these same functions.
 */
import type { Translate } from "../../shared/translator";
import { withAudit, type Actor, type Statement as BatchStatement } from "../db/audit-log";
import type { Database } from "../db/database";
import {
  appealById,
  appealOf,
  decideAppealQuery,
  decisionById,
  decisionFor,
  detachStaleDecisionQuery,
  enableAccountQueries,
  insertAppeal,
  insertDecisionQuery,
  keepRemovedMessageQuery,
  keptAccountStatusSql,
  keptProfileContentSql,
  liftRestrictionQueries,
  memberForModeration,
  photoById,
  removeProfileContentQueries,
  reportById,
  reporterProfile,
  restorePhotoQuery,
  restoreProfileContentQueries,
  restrictQueries,
  settlePhotoQuery,
  type Decision,
} from "../db/moderation";
import type { RemovedContent } from "../db/conversation-store";
import { closeReportQuery, disableAccountQueries } from "../db/reports";
import { sessionsRevokedSince } from "../db/sessions";
import { AppError } from "../errors";
import { mailerFor } from "../mail/mailer";
import { composeMail } from "../mail/templates";
import { isLanguage, type Language } from "../../shared/locales";
import type { CompanyInfo } from "../../shared/settings";
import {
  appealDeadline,
  DECISION_GROUNDS,
  RESTRICTING_OUTCOMES,
  TOLD_OUTCOMES,
  type AppealBody,
  type DecisionGround,
  type DecisionOutcome,
  type ReportOutcome,
  type Statement,
} from "../../shared/moderation";
import { verificationDecisionOf } from "../db/verification";
import { loadSite } from "../edge/site";
import { i18nFor } from "../translations";
import { closeSessionSockets } from "./sessions";
import { conversationRooms, memberChangedInChats } from "./chats";
import { tellProfileChanged } from "../notices/tell";
import { decideNotifierAppeal, tellNotifier } from "./notifier";

/** An operator deciding: who they are for the audit log, and the Worker's bindings for the effects. */
export type Moderator = { env: Env; db: Database; actor: Actor & { operatorId: number }; now: number };

/** A decision refused: the console shows the text (operators read English). */
export class ModerationRefusal extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 409,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const isGround = (value: string | null | undefined): value is DecisionGround =>
  (DECISION_GROUNDS as readonly string[]).includes(value ?? "");
const restricts = (outcome: DecisionOutcome) => RESTRICTING_OUTCOMES.includes(outcome);

/** A second decision of the same photo, report or appeal fails on its unique index: the batch changed nothing. */
async function runOnce(db: Database, batch: BatchStatement[], what: string): Promise<void> {
  try {
    await db.batch(batch as [BatchStatement, ...BatchStatement[]]);
  } catch (error) {
    if (
      /UNIQUE constraint failed/i.test(
        error instanceof Error ? `${error.message} ${String(error.cause ?? "")}` : String(error),
      )
    ) {
      throw new ModerationRefusal(409, "already_decided", `This ${what} was decided by someone else a moment ago.`);
    }
    throw error;
  }
}

type NewDecision = Parameters<typeof insertDecisionQuery>[1];

/**
 * What a decision removed or changed (moderation_decisions.kept_content, migration 0035): the
 * profile's text, main photo and photos with their status before "remove the content", the account's
 * and profile's status before "disable", a removed chat message. A reversed appeal gives it back; the
 * appeal's reviewer sees it.
 */
export type KeptContent = {
  aboutMe?: string | null;
  mainPhotoId?: number | null;
  photos?: { id: number; status: "active" | "pending" }[];
  account?: { status: string; profileStatus: string };
  message?: RemovedContent;
};

export function keptContentOf(decision: Decision): KeptContent | null {
  if (!decision.keptContent) return null;
  try {
    return JSON.parse(decision.keptContent) as KeptContent;
  } catch {
    return null;
  }
}

function decisionRow(
  m: Moderator,
  member: { userId: number | null; profileId: number | null; language: string },
  fields: Pick<NewDecision, "source" | "photoId" | "reportId" | "appealId" | "outcome" | "ground" | "facts">,
): NewDecision {
  const restricting = restricts(fields.outcome as DecisionOutcome);
  return {
    ...fields,
    userId: member.userId,
    profileId: member.profileId,
    restricts: restricting,
    automated: false,
    language: member.language,
    operatorId: m.actor.operatorId,
    createdAt: m.now,
    appealUntil: restricting ? appealDeadline(m.now) : null,
  };
}

/**
 * Approve a waiting photo (it becomes public) or refuse it with a ground from the list and the facts
 * in the moderator's words (a statement of reasons for the member). Once per photo.
 */
export async function decidePhoto(
  m: Moderator,
  input: { photoId: number; approve: boolean; ground?: string | null; facts?: string | null },
): Promise<Decision> {
  const photo = await photoById(m.db, input.photoId);
  if (!photo) throw new ModerationRefusal(404, "not_found", "There is no such photo.");
  if (photo.status !== "pending")
    throw new ModerationRefusal(409, "already_decided", "This photo is not waiting any more.");
  const member = await memberForModeration(m.db, photo.profileId);
  if (!member) throw new ModerationRefusal(404, "not_found", "The photo's member is gone.");
  if (!input.approve && !isGround(input.ground))
    throw new ModerationRefusal(400, "ground_required", "Choose the rule the photo breaks.");
  const outcome: DecisionOutcome = input.approve ? "approve" : "reject_photo";
  const status = input.approve ? "active" : "rejected";
  const batch = withAudit(
    m.db,
    m.actor,
    {
      action: `photo.${input.approve ? "approve" : "reject"}`,
      target: { kind: "photo", id: photo.id },
      before: { status: "pending" },
      after: { status, ...(input.approve ? {} : { ground: input.ground }) },
      reason: input.facts ?? null,
    },
    [
      settlePhotoQuery(m.db, photo.id, status),
      insertDecisionQuery(
        m.db,
        decisionRow(m, member, {
          source: "photo",
          photoId: photo.id,
          outcome,
          ground: input.approve ? null : (input.ground as string),
          facts: input.facts?.trim() || null,
        }),
      ),
    ],
    m.now,
    true,
  );
  // First, before the guarded statement and its audit row: a decision an earlier photo with this id left.
  await runOnce(m.db, [detachStaleDecisionQuery(m.db, { photoId: photo.id }), ...batch], "photo");
  const decision = (await decisionFor(m.db, { photoId: photo.id }))!;
  // The member's own pages and those of everyone they talk with show the photo (or stop showing it) at once.
  await tellProfileChanged(m.env, m.db, member.profileId);
  if (!input.approve) await tellMember(m.env, decision, member);
  return decision;
}

/**
 * Decide an open report: dismiss it, warn the member, remove their profile's content, restrict them
 * (hidden from search and lists) or disable the account. Once per report.
 */
export async function decideReport(
  m: Moderator,
  input: { reportId: number; outcome: ReportOutcome; ground?: string | null; facts?: string | null },
): Promise<Decision | null> {
  const report = await reportById(m.db, input.reportId);
  if (!report) throw new ModerationRefusal(404, "not_found", "There is no such report.");
  if (report.status !== "open") throw new ModerationRefusal(409, "already_decided", "This report is closed already.");
  const facts = input.facts?.trim() || null;
  if (input.outcome !== "dismiss" && !isGround(input.ground))
    throw new ModerationRefusal(400, "ground_required", "Choose the rule that was broken.");
  if (input.outcome !== "dismiss" && !facts)
    throw new ModerationRefusal(
      400,
      "facts_required",
      "Say what happened: the member reads it in the statement of reasons.",
    );
  const member = report.profileId === null ? undefined : await memberForModeration(m.db, report.profileId);
  if (input.outcome !== "dismiss" && !member)
    throw new ModerationRefusal(400, "no_member", "This report names no member: it can only be dismissed.");
  // A reported message is removed from the conversation of its sender and the reporter, not the sender's profile.
  const removesMessage = input.outcome === "remove_content" && report.messageId !== null;
  const reporter =
    removesMessage && report.reporterUserId !== null ? await reporterProfile(m.db, report.reporterUserId) : undefined;
  if (removesMessage && !reporter)
    throw new ModerationRefusal(
      400,
      "no_conversation",
      "The reporter's profile is gone, so the conversation cannot be reached: restrict or disable the member instead.",
    );

  const status = input.outcome === "dismiss" ? "rejected" : "resolved";
  const effects: BatchStatement[] =
    member === undefined
      ? []
      : input.outcome === "restrict"
        ? [...restrictQueries(m.db, member.userId, m.now)]
        : input.outcome === "remove_content"
          ? removesMessage
            ? []
            : [...removeProfileContentQueries(m.db, member.profileId)]
          : input.outcome === "disable"
            ? [...disableAccountQueries(m.db, member.profileId, m.now)]
            : [];
  const decisionOf = member ?? { userId: null, profileId: report.profileId, language: report.language };
  const batch = withAudit(
    m.db,
    m.actor,
    {
      action: `report.${input.outcome}`,
      target: { kind: "report", id: report.id },
      before: { status: "open", account: member?.accountStatus ?? null },
      after: {
        status,
        outcome: input.outcome,
        ground: input.ground ?? null,
        ...(removesMessage ? { removed_message: report.messageId } : {}),
      },
      reason: facts,
    },
    [
      closeReportQuery(m.db, report.id, status, facts, m.now),
      insertDecisionQuery(
        m.db,
        decisionRow(m, decisionOf, {
          source: "report",
          reportId: report.id,
          outcome: removesMessage ? "remove_message" : input.outcome,
          ground: isGround(input.ground) ? input.ground : null,
          facts,
        }),
        // Read before the effects below in the same batch: what a reversal gives back.
        member === undefined
          ? undefined
          : input.outcome === "remove_content" && !removesMessage
            ? keptProfileContentSql(member.profileId)
            : input.outcome === "disable"
              ? keptAccountStatusSql(member.profileId)
              : undefined,
      ),
      ...effects,
    ],
    m.now,
    true,
  );
  await runOnce(m.db, [detachStaleDecisionQuery(m.db, { reportId: report.id }), ...batch], "report");
  const decision = (await decisionFor(m.db, { reportId: report.id }))!;

  // After the batch, which lets one decision of the report through: the removal is idempotent, so a
  // moderator who sees it fail here (the object unreachable) is not left with a half-made decision twice.
  if (removesMessage && member && reporter) {
    const removed = await conversationRooms(m.env.CONVERSATIONS)(member.profileId, reporter.id).removeMessage(
      member.profileId,
      reporter.id,
      report.messageId!,
      m.now,
    );
    // Kept with the decision: a reversed appeal puts it back, the appeal's reviewer reads it.
    if (removed) await keepRemovedMessageQuery(m.db, decision.id, removed);
  }
  if (member && input.outcome === "disable") {
    // At once, as a password change does: every session's sockets close, and the chats stop taking sends.
    await closeSessionSockets(m.env.MEMBERS, member.profileId, await sessionsRevokedSince(m.db, member.userId, m.now));
    await memberChangedInChats(m.db, conversationRooms(m.env.CONVERSATIONS), member.profileId);
  }
  if (
    member &&
    (input.outcome === "restrict" ||
      (input.outcome === "remove_content" && !removesMessage) ||
      input.outcome === "disable")
  )
    await tellProfileChanged(m.env, m.db, member.profileId);
  if (member && TOLD_OUTCOMES.includes(input.outcome)) await tellMember(m.env, decision, member);
  await tellNotifier(m.env, report, input.outcome, { ground: input.ground, facts }, m.now);
  return decision;
}

/**
 * A member appeals a decision about them (DSA Art. 20): once, within six months, of a decision that
 * restricts them. `now` is a parameter so the deadline is tested without waiting.
 */
export async function fileAppeal(db: Database, userId: number, body: AppealBody, now: number): Promise<{ id: number }> {
  const decision = await decisionById(db, body.decision_id);
  if (!decision || decision.userId !== userId || !TOLD_OUTCOMES.includes(decision.outcome as DecisionOutcome)) {
    throw new AppError({ status: 404, code: "not_found", key: "moderation.errors.not_found" });
  }
  const id = await insertAppeal(db, { decisionId: decision.id, userId, text: body.text }, now);
  if (id !== null) return { id };
  if (!decision.restricts || decision.appealUntil === null)
    throw new AppError({ status: 400, code: "not_appealable", key: "moderation.errors.not_appealable" });
  if (await appealOf(db, decision.id))
    throw new AppError({ status: 409, code: "already_appealed", key: "moderation.errors.already_appealed" });
  throw new AppError({ status: 400, code: "appeal_closed", key: "moderation.errors.appeal_closed" });
}

/**
 * Decide an appeal: uphold the decision, or reverse it (the photo comes back, the restriction is
 * lifted, the account is enabled again). Only another operator than the one who decided first.
 */
export async function decideAppeal(
  m: Moderator,
  input: { appealId: number; reverse: boolean; note: string },
): Promise<Decision> {
  const appeal = await appealById(m.db, input.appealId);
  if (!appeal) throw new ModerationRefusal(404, "not_found", "There is no such appeal.");
  if (appeal.status !== "open") throw new ModerationRefusal(409, "already_decided", "This appeal is decided already.");
  const first = (await decisionById(m.db, appeal.decisionId))!;
  if (first.operatorId === m.actor.operatorId)
    throw new ModerationRefusal(
      403,
      "same_operator",
      "You took the decision appealed: another operator decides the appeal.",
    );
  // The notifier's objection to a dismissal (docs/decisions/0062): the report opens again, or the dismissal stands.
  if (appeal.byNotifier) {
    if (!(await decideNotifierAppeal(m, appeal, first, input)))
      throw new ModerationRefusal(409, "already_decided", "This appeal was decided by someone else a moment ago.");
    return (await decisionById(m.db, first.id))!;
  }
  const member = first.profileId === null ? undefined : await memberForModeration(m.db, first.profileId);
  if (!member) throw new ModerationRefusal(404, "not_found", "The member is gone.");

  const kept = keptContentOf(first);
  const undo: BatchStatement[] = !input.reverse
    ? []
    : first.outcome === "reject_photo" && first.photoId !== null
      ? [restorePhotoQuery(m.db, first.photoId)]
      : first.outcome === "restrict"
        ? [...liftRestrictionQueries(m.db, member.userId)]
        : first.outcome === "disable"
          ? [...enableAccountQueries(m.db, member.userId, kept?.account)]
          : first.outcome === "remove_content" && kept?.photos
            ? [
                ...restoreProfileContentQueries(m.db, member, {
                  aboutMe: kept.aboutMe ?? null,
                  mainPhotoId: kept.mainPhotoId ?? null,
                  photos: kept.photos,
                }),
              ]
            : [];
  const status = input.reverse ? "reversed" : "upheld";
  const batch = withAudit(
    m.db,
    m.actor,
    {
      action: `appeal.${status}`,
      target: { kind: "appeal", id: appeal.id },
      before: { status: "open", decision: first.id, outcome: first.outcome },
      after: { status },
      reason: input.note,
    },
    [
      decideAppealQuery(m.db, appeal.id, m.actor.operatorId, status, input.note, m.now),
      insertDecisionQuery(
        m.db,
        decisionRow(m, member, {
          source: "appeal",
          appealId: appeal.id,
          outcome: input.reverse ? "appeal_reversed" : "appeal_upheld",
          ground: first.ground,
          facts: input.note,
        }),
      ),
      ...undo,
    ],
    m.now,
    true,
  );
  await runOnce(m.db, batch, "appeal");
  const decision = (await decisionFor(m.db, { appealId: appeal.id }))!;
  // A removed chat message lives in its conversation's object: put back once the appeal is decided.
  if (input.reverse && first.outcome === "remove_message" && kept?.message) await restoreRemovedMessage(m, first, kept);
  if (input.reverse) await tellProfileChanged(m.env, m.db, member.profileId);
  // The reasoned answer (DSA Art. 20(5)): the outcome, the reviewer's note, and the out-of-court body.
  await mailMember(m.env, member, "appeal_outcome", first.id, { outcome: `appeal_${status}`, note: input.note });
  return decision;
}

/** Put a removed chat message back in the conversation of its sender and the reporter. */
async function restoreRemovedMessage(m: Moderator, first: Decision, kept: KeptContent): Promise<void> {
  const report = first.reportId === null ? undefined : await reportById(m.db, first.reportId);
  const reporter =
    report?.reporterUserId === null || report?.reporterUserId === undefined
      ? undefined
      : await reporterProfile(m.db, report.reporterUserId);
  if (!reporter || first.profileId === null || !kept.message) return;
  await conversationRooms(m.env.CONVERSATIONS)(first.profileId, reporter.id).restoreMessage(
    first.profileId,
    reporter.id,
    kept.message,
  );
}

/** The key of a decision's mailed link: the page opens with it without a login (a disabled member cannot log in). */
export async function decisionKey(secret: string, decisionId: number, userId: number): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(`decision-link:${secret}`),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const signature = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${decisionId}:${userId}`));
  return btoa(String.fromCharCode(...new Uint8Array(signature)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** Who may read a statement: the member it concerns, by their session or by the key of the mailed link. */
export async function readableDecision(
  db: Database,
  secret: string,
  id: number,
  reader: { userId: number | null; key: string | null },
): Promise<Decision> {
  const decision = await decisionById(db, id);
  const visible =
    decision &&
    decision.userId !== null &&
    TOLD_OUTCOMES.concat(["appeal_upheld", "appeal_reversed"]).includes(decision.outcome as DecisionOutcome);
  if (
    visible &&
    (reader.userId === decision.userId ||
      (reader.key !== null && reader.key === (await decisionKey(secret, decision.id, decision.userId!))))
  )
    return decision;
  throw new AppError({ status: 404, code: "not_found", key: "moderation.errors.not_found" });
}

/** A statement as the member's page shows it; `company`: the site's, which names the out-of-court body. */
export async function statementOf(
  db: Database,
  decision: Decision,
  now: number,
  company: CompanyInfo | null = null,
): Promise<Statement> {
  const appeal = await appealOf(db, decision.id);
  return {
    id: decision.id,
    outcome: decision.outcome as DecisionOutcome,
    ground: isGround(decision.ground) ? decision.ground : null,
    facts: decision.facts,
    automated: decision.automated,
    restricts: decision.restricts,
    created_at: decision.createdAt,
    appeal_until: decision.appealUntil,
    can_appeal: decision.restricts && decision.appealUntil !== null && decision.appealUntil >= now && !appeal,
    appeal: appeal
      ? {
          status: appeal.status as "open" | "upheld" | "reversed",
          created_at: appeal.createdAt,
          decided_at: appeal.decidedAt,
          note: appeal.status === "open" ? null : appeal.note,
        }
      : null,
    out_of_court: company?.dispute_body ?? null,
  };
}

type Member = NonNullable<Awaited<ReturnType<typeof memberForModeration>>>;

/**
 * The statement of reasons by mail, in the member's language, with the link to their decision page;
 * a decision that restricts nothing (a warning) is told without a word on appealing it.
 */
function tellMember(env: Env, decision: Decision, member: Member): Promise<void> {
  return mailMember(env, member, decision.restricts ? "statement" : "notice", decision.id, {
    outcome: decision.outcome,
  });
}

/** The receipt of an appeal (DSA Art. 20), mailed once it is filed, with the link to the decision page. */
export async function tellAppealReceived(env: Env, db: Database, decision: Decision): Promise<void> {
  const member = decision.profileId === null ? undefined : await memberForModeration(db, decision.profileId);
  if (member) await mailMember(env, member, "appeal_receipt", decision.id, { outcome: decision.outcome });
}

async function mailMember(
  env: Env,
  member: Member,
  kind: "statement" | "notice" | "appeal_outcome" | "appeal_receipt",
  decisionId: number,
  values: { outcome: string; note?: string },
): Promise<void> {
  try {
    const site = await loadSite(env.SETTINGS, member.siteDomain);
    const origin = `https://${site?.settings.domain ?? member.siteDomain}`;
    const t = i18nFor(languageOf(member.language)).t;
    const link = `${origin}/decisions/${decisionId}?key=${await decisionKey(env.SESSION_SECRET, decisionId, member.userId)}`;
    const body = site?.company?.dispute_body;
    const text = {
      outcome: outcomeText(t, values.outcome),
      reason: values.note ?? "",
      redress_part: body
        ? t("moderation.page.other_remedies_body", { name: body.name, url: body.url })
        : t("moderation.page.other_remedies"),
    };
    await mailerFor(env).send(
      composeMail(
        t,
        kind,
        { address: member.email, name: member.username },
        { name: site?.settings.name ?? member.siteDomain, company: site?.company ?? null },
        link,
        text,
      ),
    );
  } catch (error) {
    // The decision stands and its page shows it; only the mail failed (logged for the operators).
    console.warn(
      JSON.stringify({
        event: "moderation_mail_failed",
        kind,
        decision: decisionId,
        message: error instanceof Error ? error.message : String(error),
      }),
    );
  }
}

const languageOf = (language: string): Language => (isLanguage(language) ? language : "en");
const outcomeText = (t: Translate, outcome: string) => t(`moderation.outcomes.${outcome}`);

/**
 * The statement of reasons of a verification selfie a moderator rejected (docs/decisions/0040): what
 * was decided (the outcome's text says how to try again), why (the reason's text in the member's
 * language as the facts), made by a person. It restricts nothing, so it has no appeal. Answers the
 * statement for the decision's batch and the mail to send once the batch is done.
 */
export async function verificationStatement(
  m: Moderator,
  profileId: number,
  reason: string,
): Promise<{ statement: BatchStatement; tell: () => Promise<void> } | null> {
  const member = await memberForModeration(m.db, profileId);
  if (!member) return null;
  const facts = i18nFor(languageOf(member.language)).t(`verification.reasons.${reason}`);
  const row = decisionRow(m, member, {
    source: "verification",
    photoId: null,
    reportId: null,
    appealId: null,
    outcome: "reject_verification",
    ground: null,
    facts,
  });
  return {
    statement: insertDecisionQuery(m.db, row),
    tell: async () => {
      const decision = await verificationDecisionOf(m.db, member.userId, m.now);
      if (decision) await tellMember(m.env, decision, member);
    },
  };
}
