/**
 * The elements of every statement of reasons (DSA Art. 17(3)) as a decision's columns, and the
 * graded, time-limited measures: what each starts, how one is lifted early, and the clock that gives
 * members whose search restriction ended back to search (docs/decisions/0061).
 */
import { withAudit } from "../db/audit-log";
import type { Database } from "../db/database";
import { liftDecisionQuery, refreshMeasuresQueries, searchRestrictionsEnded } from "../db/measures";
import type { moderationDecisions } from "../db/schema";
import { appealOf, decisionById } from "../db/moderation";
import { profileOfMember } from "../db/profiles";
import { revokeMemberSessions, sessionsRevokedSince } from "../db/sessions";
import {
  FACT_TEMPLATES,
  isFactTemplate,
  MEASURE_OF,
  MEASURE_PERIODS,
  TERMS_SECTION,
  TIMED_MEASURES,
  type ContentScope,
  type DecisionGround,
  type DecisionOutcome,
  type Initiative,
  type MeasurePeriod,
} from "../../shared/moderation";
import { conversationRooms, memberChangedInChats } from "./chats";
import { closeSessionSockets } from "./sessions";
import { tellProfileChanged } from "../notices/tell";
import type { Statement as BatchStatement } from "../db/audit-log";

type Columns = Partial<typeof moderationDecisions.$inferInsert>;

/** What an operator chose beside the outcome: the facts template, the law, the period, what it covers. */
export type MeasureChoice = {
  initiative: Initiative;
  ground: DecisionGround | null;
  factTemplate?: string | null;
  law?: string | null;
  period?: MeasurePeriod | null;
  scope: ContentScope;
  /** The sites it applies on: the member's own site for an account's measure. */
  sites: string[];
};

/** Why a choice cannot make a statement, or null. Operators read English. */
export function choiceProblem(outcome: DecisionOutcome, choice: MeasureChoice, facts: string | null): string | null {
  const measure = MEASURE_OF[outcome];
  if (measure === "none" || measure === "refuse_verification") return null;
  if (!choice.ground) return "Choose the rule that was broken.";
  if (choice.factTemplate && !isFactTemplate(choice.ground, choice.factTemplate))
    return `Choose facts of the rule chosen (${FACT_TEMPLATES[choice.ground].join(", ")}).`;
  if (!choice.factTemplate && !facts) return "Choose the facts, or say what happened in your own words.";
  if (choice.ground === "illegal" && !choice.law?.trim())
    return "Name the law concerned: illegal content rests on a law, not on the terms.";
  if (TIMED_MEASURES.includes(measure) && !choice.period) return "Choose how long it lasts.";
  return null;
}

/** The columns of migration 0037 for a decision taken at `now`. */
export function elementColumns(outcome: DecisionOutcome, choice: MeasureChoice, now: number): Columns {
  const measure = MEASURE_OF[outcome];
  const timed = TIMED_MEASURES.includes(measure);
  const seconds = timed && choice.period ? MEASURE_PERIODS[choice.period] : null;
  const illegal = choice.ground === "illegal";
  return {
    measure,
    initiative: choice.initiative,
    detectionAutomated: false,
    contentScope: JSON.stringify(choice.scope),
    territorialScope: JSON.stringify(choice.sites),
    startsAt: measure === "none" ? null : now,
    endsAt: seconds === null ? null : now + seconds,
    basis: choice.ground === null ? null : illegal ? "illegal" : "terms",
    legalGround: illegal ? (choice.law?.trim() ?? null) : null,
    termsClause: choice.ground === null || illegal ? null : TERMS_SECTION[choice.ground],
    factTemplate: choice.factTemplate ?? null,
  };
}

/** What a measure's decision does to the account, after its insert in the same batch. */
export function measureQueries(db: Database, outcome: DecisionOutcome, userId: number, now: number): BatchStatement[] {
  const measure = MEASURE_OF[outcome];
  if (!TIMED_MEASURES.includes(measure)) return [];
  return [
    ...refreshMeasuresQueries(db, userId, now),
    ...(measure === "suspend" ? [revokeMemberSessions(db, userId, now)] : []),
  ];
}

/** After the batch: a suspended member's pages end, a chat restriction reaches the conversations, search forgets or finds them. */
export async function measureTaken(
  env: Env,
  db: Database,
  member: { userId: number; profileId: number },
  outcome: DecisionOutcome,
  now: number,
): Promise<void> {
  const measure = MEASURE_OF[outcome];
  if (measure === "suspend")
    await closeSessionSockets(env.MEMBERS, member.profileId, await sessionsRevokedSince(db, member.userId, now));
  if (measure === "suspend" || measure === "restrict_chat")
    await memberChangedInChats(db, conversationRooms(env.CONVERSATIONS), member.profileId);
  if (measure === "restrict_search") await tellProfileChanged(env, db, member.profileId);
}

export class LiftRefusal extends Error {
  constructor(
    readonly status: 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Lift a timed measure early (an operator, with a reason): the decision records when, the account
 * is set from the decisions still in force, the audit log has it, and the member is told by `tell`.
 */
export async function liftMeasure(
  ctx: { env: Env; db: Database; actor: Parameters<typeof withAudit>[1]; now: number },
  decisionId: number,
  reason: string,
  tell: (decisionId: number) => Promise<void>,
): Promise<void> {
  const decision = await decisionById(ctx.db, decisionId);
  if (!decision || decision.userId === null || decision.profileId === null)
    throw new LiftRefusal(404, "There is no such decision.");
  const measure = decision.measure ?? (decision.outcome === "restrict" ? "restrict_search" : null);
  if (!measure || !TIMED_MEASURES.includes(measure as never))
    throw new LiftRefusal(409, "Only a restriction or a suspension can be lifted.");
  if (decision.liftedAt !== null) throw new LiftRefusal(409, "This measure was lifted already.");
  if (decision.endsAt !== null && decision.endsAt <= ctx.now) throw new LiftRefusal(409, "This measure has ended.");
  if ((await appealOf(ctx.db, decision.id))?.status === "reversed")
    throw new LiftRefusal(409, "An appeal withdrew this decision already.");
  const results = await ctx.db.batch(
    withAudit(
      ctx.db,
      ctx.actor,
      {
        action: "decision.lift",
        target: { kind: "member", id: decision.userId },
        before: { decision: decision.id, measure, ends_at: decision.endsAt },
        after: { lifted_at: ctx.now },
        reason,
      },
      [liftDecisionQuery(ctx.db, decision.id, ctx.now), ...refreshMeasuresQueries(ctx.db, decision.userId, ctx.now)],
      ctx.now,
      true,
    ) as [BatchStatement, ...BatchStatement[]],
  );
  if (!(results[0] as { meta?: { changes?: number } }).meta?.changes)
    throw new LiftRefusal(409, "This measure was lifted a moment ago.");
  const outcome = measure === "restrict_search" ? "restrict_search" : (decision.outcome as DecisionOutcome);
  await measureTaken(ctx.env, ctx.db, { userId: decision.userId, profileId: decision.profileId }, outcome, ctx.now);
  await tell(decision.id);
}

/** The five-minute clock: members whose search restriction reached its end at `now` are in search again. */
export async function endSearchRestrictions(env: Env, db: Database, now: number): Promise<number> {
  const ended = await searchRestrictionsEnded(db, now);
  for (const { userId } of ended) {
    await db.batch(refreshMeasuresQueries(db, userId, now) as unknown as [BatchStatement, ...BatchStatement[]]);
    const profile = await profileOfMember(db, userId);
    if (profile) await tellProfileChanged(env, db, profile.id);
  }
  return ended.length;
}
