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
  memberForModeration,
  photoById,
  photosOfProfile,
  removeProfileContentQueries,
  reportById,
  reporterProfile,
  restorePhotoQuery,
  restoreProfileContentQueries,
  settlePhotoQuery,
  type Decision,
} from "../db/moderation";
import type { RemovedContent } from "../db/conversation-store";
import { cancelDeletionQueries } from "../db/accounts";
import { refreshSearchable } from "../db/profiles";
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
  FACT_TEMPLATES,
  MEASURE_OF,
  RESTRICTING_OUTCOMES,
  TIMED_MEASURES,
  TOLD_OUTCOMES,
  type AppealBody,
  type DecisionGround,
  type ContentScope,
  type DecisionOutcome,
  type Initiative,
  type Measure,
  type MeasurePeriod,
  type ReportOutcome,
  type Statement,
} from "../../shared/moderation";
import { verificationDecisionOf } from "../db/verification";
import { memberDate } from "../../shared/dates";
import { statementLines } from "../../shared/statement-lines";
import {
  keptPhotoSql,
  keptTextSql,
  liftDecisionQuery,
  refreshMeasuresQueries,
  removePhotoQueries,
  removeTextQuery,
} from "../db/measures";
import { choiceProblem, elementColumns, measureQueries, measureTaken, type MeasureChoice } from "./measures";
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

export function decisionRow(
  m: Moderator,
  member: { userId: number | null; profileId: number | null; language: string },
  fields: Pick<NewDecision, "source" | "photoId" | "reportId" | "appealId" | "outcome" | "ground" | "facts">,
  choice: MeasureChoice,
): NewDecision {
  const restricting = restricts(fields.outcome as DecisionOutcome);
  return {
    ...elementColumns(fields.outcome as DecisionOutcome, choice, m.now),
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
  input: {
    photoId: number;
    approve: boolean;
    ground?: string | null;
    facts?: string | null;
    factTemplate?: string | null;
  },
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
  const choice = photoChoice(member, photo.id, input);
  const problem = input.approve ? null : choiceProblem(outcome, choice, input.facts?.trim() || null);
  if (problem) throw new ModerationRefusal(400, "statement_incomplete", problem);
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
        decisionRow(
          m,
          member,
          {
            source: "photo",
            photoId: photo.id,
            outcome,
            ground: input.approve ? null : (input.ground as string),
            facts: input.facts?.trim() || null,
          },
          choice,
        ),
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

/** The photo queue is the platform's own moderation; without chosen facts or words, the ground's first facts (the form's default). */
function photoChoice(
  member: { siteDomain: string },
  photoId: number,
  input: { approve: boolean; ground?: string | null; facts?: string | null; factTemplate?: string | null },
): MeasureChoice {
  const ground = !input.approve && isGround(input.ground) ? input.ground : null;
  const fallback = ground && !input.facts?.trim() ? `${ground}.${FACT_TEMPLATES[ground][0]}` : null;
  return {
    initiative: "own_initiative",
    ground,
    factTemplate: input.factTemplate || fallback,
    law: null,
    scope: { photo_ids: [photoId] },
    sites: [member.siteDomain],
  };
}

/** What a moderator decides about a report: the outcome, the rule, the facts (chosen and own words), the law, the period, the item. */
export type ReportDecisionInput = {
  reportId: number;
  outcome: ReportOutcome;
  ground?: string | null;
  facts?: string | null;
  factTemplate?: string | null;
  law?: string | null;
  period?: MeasurePeriod | null;
  /** For remove_item: "text", "message" or "photo:<id>". */
  item?: string | null;
};

type Report = NonNullable<Awaited<ReturnType<typeof reportById>>>;
type ModeratedMember = NonNullable<Awaited<ReturnType<typeof memberForModeration>>>;

/** The decision's own outcome for the report's: which item is removed, and the legacy "remove the content" of a reported message. */
function reportDecisionOutcome(report: Report, input: ReportDecisionInput): DecisionOutcome {
  if (input.outcome === "remove_item") {
    if (input.item === "message" && report.messageId !== null) return "remove_message";
    if (input.item === "text") return "remove_text";
    if (input.item?.startsWith("photo:")) return "remove_photo";
    throw new ModerationRefusal(
      400,
      "item_required",
      "Choose the item to remove: the text, one photo or the reported message.",
    );
  }
  if (input.outcome === "remove_content" && report.messageId !== null) return "remove_message";
  return input.outcome;
}

/** A photo named by a remove_item choice, when it is the member's and shown or waiting. */
async function itemPhoto(m: Moderator, member: ModeratedMember, item: string | null | undefined): Promise<number> {
  const id = Number(item?.slice("photo:".length));
  const photo = Number.isInteger(id) ? await photoById(m.db, id) : undefined;
  if (!photo || photo.profileId !== member.profileId || !["active", "pending"].includes(photo.status))
    throw new ModerationRefusal(400, "item_required", "That photo is not one of the member's shown or waiting photos.");
  return photo.id;
}

/** What the decision covers (content_scope). */
async function reportScope(
  m: Moderator,
  report: Report,
  outcome: DecisionOutcome,
  photoId: number | null,
  member: ModeratedMember | undefined,
) {
  if (outcome === "remove_message") return { message_ids: [report.messageId!] };
  if (outcome === "remove_photo") return { photo_ids: [photoId!] };
  if (outcome === "remove_text") return { text: true };
  if (outcome === "remove_content" && member) {
    const shown = (await photosOfProfile(m.db, member.profileId)).filter((p) => p.status !== "rejected");
    return { text: true, photo_ids: shown.map((p) => p.id) };
  }
  if (outcome === "warn" || outcome === "dismiss")
    return report.messageId !== null ? { message_ids: [report.messageId] } : {};
  return { account: true };
}

/** What the decision changes on the profile or account, after its insert in the batch. */
function reportEffects(
  m: Moderator,
  outcome: DecisionOutcome,
  member: ModeratedMember,
  photoId: number | null,
): BatchStatement[] {
  if (outcome === "remove_photo") return [...removePhotoQueries(m.db, member.profileId, photoId!)];
  if (outcome === "remove_text") return [removeTextQuery(m.db, member.profileId)];
  if (outcome === "remove_content") return [...removeProfileContentQueries(m.db, member.profileId)];
  if (outcome === "disable") return [...disableAccountQueries(m.db, member.profileId, m.now)];
  return measureQueries(m.db, outcome, member.userId, m.now);
}

/** What a reversal gives back, read in the decision's insert before the effects. */
function reportKept(outcome: DecisionOutcome, member: ModeratedMember, photoId: number | null) {
  if (outcome === "remove_content") return keptProfileContentSql(member.profileId);
  if (outcome === "remove_photo") return keptPhotoSql(member.profileId, photoId!);
  if (outcome === "remove_text") return keptTextSql(member.profileId);
  if (outcome === "disable") return keptAccountStatusSql(member.profileId);
  return undefined;
}

/**
 * Decide an open report: dismiss it, warn the member, remove one item (a photo, the text, the
 * reported message) or all their profile's content, restrict their chat or search for a period,
 * suspend or disable the account (docs/decisions/0061). Once per report.
 */
export async function decideReport(m: Moderator, input: ReportDecisionInput): Promise<Decision | null> {
  const report = await reportById(m.db, input.reportId);
  if (!report) throw new ModerationRefusal(404, "not_found", "There is no such report.");
  if (report.status !== "open") throw new ModerationRefusal(409, "already_decided", "This report is closed already.");
  const facts = input.facts?.trim() || null;
  if (input.outcome !== "dismiss" && !isGround(input.ground))
    throw new ModerationRefusal(400, "ground_required", "Choose the rule that was broken.");
  if (input.outcome !== "dismiss" && !facts && !input.factTemplate)
    throw new ModerationRefusal(
      400,
      "facts_required",
      "Choose the facts or say what happened: the member reads them in the statement of reasons.",
    );
  const member = report.profileId === null ? undefined : await memberForModeration(m.db, report.profileId);
  if (input.outcome !== "dismiss" && !member)
    throw new ModerationRefusal(400, "no_member", "This report names no member: it can only be dismissed.");
  const outcome = reportDecisionOutcome(report, input);
  const photoId = outcome === "remove_photo" ? await itemPhoto(m, member!, input.item) : null;
  // A reported message is removed from the conversation of its sender and the reporter, not the sender's profile.
  const removesMessage = outcome === "remove_message";
  const reporter =
    removesMessage && report.reporterUserId !== null ? await reporterProfile(m.db, report.reporterUserId) : undefined;
  if (removesMessage && !reporter)
    throw new ModerationRefusal(
      400,
      "no_conversation",
      "The reporter's profile is gone, so the conversation cannot be reached: restrict or disable the member instead.",
    );
  const choice: MeasureChoice = {
    initiative: "notice",
    ground: isGround(input.ground) ? input.ground : null,
    factTemplate: input.factTemplate || null,
    law: input.law ?? null,
    // The command line's "restrict" is until lifted, as it always was.
    period: input.outcome === "restrict" ? (input.period ?? "lifted") : (input.period ?? null),
    scope: await reportScope(m, report, outcome, photoId, member),
    sites: [member?.siteDomain ?? report.siteDomain],
  };
  const problem = choiceProblem(outcome, choice, facts);
  if (problem) throw new ModerationRefusal(400, "statement_incomplete", problem);

  const status = input.outcome === "dismiss" ? "rejected" : "resolved";
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
        outcome,
        ground: input.ground ?? null,
        ...(choice.period ? { period: choice.period } : {}),
        ...(removesMessage ? { removed_message: report.messageId } : {}),
        ...(photoId !== null ? { removed_photo: photoId } : {}),
      },
      reason: facts,
    },
    [
      closeReportQuery(m.db, report.id, status, facts, m.now),
      insertDecisionQuery(
        m.db,
        decisionRow(
          m,
          decisionOf,
          { source: "report", reportId: report.id, outcome, ground: choice.ground, facts },
          choice,
        ),
        member === undefined ? undefined : reportKept(outcome, member, photoId),
      ),
      ...(member === undefined || removesMessage ? [] : reportEffects(m, outcome, member, photoId)),
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
  if (member && outcome === "disable") {
    // At once, as a password change does: every session's sockets close, and the chats stop taking sends.
    await closeSessionSockets(m.env.MEMBERS, member.profileId, await sessionsRevokedSince(m.db, member.userId, m.now));
    await memberChangedInChats(m.db, conversationRooms(m.env.CONVERSATIONS), member.profileId);
  }
  if (member) await measureTaken(m.env, m.db, member, outcome, m.now);
  if (member && ["remove_content", "remove_photo", "remove_text", "disable"].includes(outcome))
    await tellProfileChanged(m.env, m.db, member.profileId);
  if (member && TOLD_OUTCOMES.includes(outcome)) await tellMember(m.env, decision, member);
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
      : TIMED_MEASURES.includes(MEASURE_OF[first.outcome as DecisionOutcome])
        ? [liftDecisionQuery(m.db, first.id, m.now), ...refreshMeasuresQueries(m.db, member.userId, m.now)]
        : first.outcome === "disable"
          ? [...enableAccountQueries(m.db, member.userId, kept?.account)]
          : first.outcome === "delete"
            ? [...cancelDeletionQueries(m.db, member.userId, m.now)]
            : ["remove_content", "remove_photo", "remove_text"].includes(first.outcome) && kept?.photos
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
        decisionRow(
          m,
          member,
          {
            source: "appeal",
            appealId: appeal.id,
            outcome: input.reverse ? "appeal_reversed" : "appeal_upheld",
            ground: first.ground,
            facts: input.note,
          },
          // The answer to the member's complaint; it names the first decision's content.
          { initiative: "notice", ground: null, scope: scopeOf(first), sites: sitesOf(first) },
        ),
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
  if (input.reverse) await measureTaken(m.env, m.db, member, first.outcome as DecisionOutcome, m.now);
  // A deletion called back: the profile is back in search unless the member is invisible.
  if (input.reverse && first.outcome === "delete") await refreshSearchable(m.db, member.userId);
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
  return statementWith(decision, (await appealOf(db, decision.id)) ?? null, now, company);
}

function statementWith(
  decision: Decision,
  appeal: Awaited<ReturnType<typeof appealOf>> | null,
  now: number,
  company: CompanyInfo | null,
): Statement {
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
    ...statementElements(decision),
  };
}

export const scopeOf = (decision: Decision): ContentScope => parsedOr(decision.contentScope, {});
export const sitesOf = (decision: Decision): string[] => parsedOr(decision.territorialScope, []);

function parsedOr<T>(text: string | null, fallback: T): T {
  try {
    return text ? (JSON.parse(text) as T) : fallback;
  } catch {
    return fallback;
  }
}

/**
 * The elements of DSA Art. 17(3) of a statement: the chosen facts and the terms' section drawn in the
 * member's language (the language of the decision), so nothing of it is in the moderator's.
 */
function statementElements(decision: Decision) {
  const t = i18nFor(languageOf(decision.language)).t;
  const section = decision.termsClause;
  return {
    measure: (decision.measure ?? (decision.outcome === "restrict" ? "restrict_search" : null)) as Measure | null,
    initiative: decision.initiative as Initiative,
    detection_automated: decision.detectionAutomated,
    scope: scopeOf(decision),
    sites: sitesOf(decision),
    starts_at: decision.startsAt,
    ends_at: decision.endsAt,
    lifted_at: decision.liftedAt,
    basis: decision.basis as "illegal" | "terms" | null,
    legal_ground: decision.legalGround,
    terms_clause: section ? `${t("pages.terms.title")}, ${t(`legal_text.terms.${section}.heading`)}` : null,
    fact_text: decision.factTemplate ? t(`moderation.fact_templates.${decision.factTemplate}`) : null,
  };
}

type Member = NonNullable<Awaited<ReturnType<typeof memberForModeration>>>;

/**
 * The statement of reasons by mail, in the member's language, with the link to their decision page;
 * a decision that restricts nothing (a warning) is told without a word on appealing it.
 */
export function tellMember(env: Env, decision: Decision, member: Member): Promise<void> {
  return mailMember(env, member, decision.restricts ? "statement" : "notice", decision.id, {
    outcome: decision.outcome,
    decision,
  });
}

/** A timed measure lifted early: the member is mailed, with the link to the decision page that shows when. */
export async function tellLifted(env: Env, db: Database, decisionId: number): Promise<void> {
  const decision = await decisionById(db, decisionId);
  const member =
    decision === undefined || decision.profileId === null
      ? undefined
      : await memberForModeration(db, decision.profileId);
  if (decision && member) await mailMember(env, member, "lifted", decision.id, { outcome: decision.outcome, decision });
}

/** The receipt of an appeal (DSA Art. 20), mailed once it is filed, with the link to the decision page. */
export async function tellAppealReceived(env: Env, db: Database, decision: Decision): Promise<void> {
  const member = decision.profileId === null ? undefined : await memberForModeration(db, decision.profileId);
  if (member) await mailMember(env, member, "appeal_receipt", decision.id, { outcome: decision.outcome });
}

async function mailMember(
  env: Env,
  member: Member,
  kind: "statement" | "notice" | "appeal_outcome" | "appeal_receipt" | "lifted",
  decisionId: number,
  values: { outcome: string; note?: string; decision?: Decision },
): Promise<void> {
  try {
    const site = await loadSite(env.SETTINGS, member.siteDomain);
    const origin = `https://${site?.settings.domain ?? member.siteDomain}`;
    const t = i18nFor(languageOf(member.language)).t;
    const link = `${origin}/decisions/${decisionId}?key=${await decisionKey(env.SESSION_SECRET, decisionId, member.userId)}`;
    const body = site?.company?.dispute_body;
    const language = languageOf(member.language);
    const date = (seconds: number) => memberDate(seconds, language, site?.settings.time_zone ?? "UTC");
    // The whole statement of reasons in the mail too (DSA Art. 17(3)), as the page shows it.
    const lines = values.decision
      ? statementLines(
          t,
          statementWith(values.decision, null, values.decision.createdAt, site?.company ?? null),
          date,
          Math.floor(Date.now() / 1000),
          true,
        )
      : [];
    const text = {
      outcome: outcomeText(t, values.outcome),
      ...(values.decision ? { date: date(values.decision.liftedAt ?? values.decision.createdAt) } : {}),
      statement: lines.map((l) => `${l.label}: ${l.text}`).join("\n"),
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
  const row = decisionRow(
    m,
    member,
    {
      source: "verification",
      photoId: null,
      reportId: null,
      appealId: null,
      outcome: "reject_verification",
      ground: null,
      facts,
    },
    { initiative: "own_initiative", ground: null, scope: {}, sites: [member.siteDomain] },
  );
  return {
    statement: insertDecisionQuery(m.db, row),
    tell: async () => {
      const decision = await verificationDecisionOf(m.db, member.userId, m.now);
      if (decision) await tellMember(m.env, decision, member);
    },
  };
}
