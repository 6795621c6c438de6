/**
 * Decisions taken from the console's Members screen and by support, with no report behind them
 * (docs/decisions/0061): a chat or search restriction or a suspension for a period, and the
 * statement of a disabling or deletion. Each is one moderation_decisions record with every element
 * of a statement of reasons, in the batch of the action itself, mailed to the member and appealable.
 */
import { withAudit, type Statement as BatchStatement } from "../db/audit-log";
import { decisionById, insertDecisionIfChangedQuery, insertDecisionQuery, memberForModeration } from "../db/moderation";
import { keptStatusAfterDisablingSql, latestDecisionOf } from "../db/measures";
import { isFactTemplate, type DecisionGround, type DecisionOutcome, type MeasurePeriod } from "../../shared/moderation";
import { choiceProblem, measureQueries, measureTaken, type MeasureChoice } from "./measures";
import { decisionRow, ModerationRefusal, tellMember, type Moderator } from "./moderation";

/** What the operator chose for the statement: the rule, the facts (template and/or own words), the law. */
export type ConsoleStatement = {
  ground: DecisionGround | null;
  factTemplate: string | null;
  facts: string | null;
  law: string | null;
};

type Member = NonNullable<Awaited<ReturnType<typeof memberForModeration>>>;

/** The choice of a console decision: the platform's own initiative, on the member's whole account on their site. */
function consoleChoice(member: Member, statement: ConsoleStatement, period: MeasurePeriod | null): MeasureChoice {
  return {
    initiative: "own_initiative",
    ground: statement.ground,
    factTemplate:
      statement.ground && isFactTemplate(statement.ground, statement.factTemplate) ? statement.factTemplate : null,
    law: statement.law,
    period,
    scope: { account: true },
    sites: [member.siteDomain],
  };
}

/** Why the statement is not complete enough for this outcome, or null (operators read English). */
export function statementProblem(
  outcome: DecisionOutcome,
  statement: ConsoleStatement,
  period: MeasurePeriod | null = null,
) {
  if (statement.ground && statement.factTemplate && !isFactTemplate(statement.ground, statement.factTemplate))
    return "The facts chosen are not of the rule chosen.";
  const choice = {
    ...consoleChoice({ siteDomain: "" } as Member, statement, period),
    factTemplate: statement.factTemplate,
  };
  return choiceProblem(outcome, choice, statement.facts);
}

/** A decision the console takes without a report, photo or appeal behind it: its row with the statement. */
function consoleRow(
  m: Moderator,
  member: Member,
  outcome: DecisionOutcome,
  statement: ConsoleStatement,
  period: Parameters<typeof consoleChoice>[2],
) {
  const fields = { source: "console", photoId: null, reportId: null, appealId: null } as const;
  return decisionRow(
    m,
    member,
    { ...fields, outcome, ground: statement.ground, facts: statement.facts },
    consoleChoice(member, statement, period),
  );
}

/**
 * The decision's insert for a disabling or deletion from the console (in the action's own batch,
 * after its guarded first statement), and the mail to send once the batch is done.
 */
export async function consoleDecision(
  m: Moderator,
  profileId: number,
  outcome: "disable" | "delete",
  statement: ConsoleStatement,
): Promise<{ insert: BatchStatement; tell: () => Promise<void> } | null> {
  const member = await memberForModeration(m.db, profileId);
  if (!member) return null;
  const row = consoleRow(m, member, outcome, statement, null);
  return {
    insert: insertDecisionIfChangedQuery(
      m.db,
      row,
      outcome === "disable" ? keptStatusAfterDisablingSql(profileId) : undefined,
    ),
    tell: () => tellLatest(m, member, outcome),
  };
}

async function tellLatest(m: Moderator, member: Member, outcome: DecisionOutcome): Promise<void> {
  const latest = await latestDecisionOf(m.db, member.userId, outcome);
  const decision = latest && (await decisionById(m.db, latest.id));
  if (decision) await tellMember(m.env, decision, member);
}

/**
 * Restrict a member's chat or search, or suspend them, for a period, from the console: the
 * decision, its audit row and the account's restriction in one batch; the member is told.
 */
export async function restrictFromConsole(
  m: Moderator,
  input: {
    profileId: number;
    outcome: "restrict_chat" | "restrict_search" | "suspend";
    period: MeasurePeriod;
    statement: ConsoleStatement;
  },
): Promise<void> {
  const member = await memberForModeration(m.db, input.profileId);
  if (!member) throw new ModerationRefusal(404, "not_found", "There is no such member.");
  const problem = statementProblem(input.outcome, input.statement, input.period);
  if (problem) throw new ModerationRefusal(400, "statement_incomplete", problem);
  const row = consoleRow(m, member, input.outcome, input.statement, input.period);
  const batch = withAudit(
    m.db,
    m.actor,
    {
      action: `member.${input.outcome}`,
      target: { kind: "member", id: member.userId },
      after: { measure: input.outcome, period: input.period, ground: input.statement.ground },
      reason: input.statement.facts ?? input.statement.factTemplate,
    },
    [insertDecisionQuery(m.db, row), ...measureQueries(m.db, input.outcome, member.userId, m.now)],
    m.now,
  );
  await m.db.batch(batch as [BatchStatement, ...BatchStatement[]]);
  await measureTaken(m.env, m.db, member, input.outcome, m.now);
  await tellLatest(m, member, input.outcome);
}
