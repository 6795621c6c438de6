/**
 * The measures the Members screen takes without a report (docs/decisions/0061): restrict chat or
 * search, or suspend, for a period; the statement every disabling and deletion carries; and lifting
 * a timed measure early. Each writes a decision with a statement of reasons the member is mailed.
 */
import type { Context } from "hono";
import * as v from "valibot";
import { decisionsAbout } from "../db/moderation";
import { liftMeasure, LiftRefusal } from "../services/measures";
import { restrictFromConsole, statementProblem, type ConsoleStatement } from "../services/console-decisions";
import { ModerationRefusal, tellLifted } from "../services/moderation";
import { DECISION_GROUNDS, TIMED_MEASURES, type DecisionOutcome, MEASURE_OF } from "../../shared/moderation";
import { ActionForm } from "./action-form";
import type { ConsoleEnv } from "./console-context";
import { actionDone, idParam, readForm, Reason } from "./console-forms";
import { when } from "./console-page";
import { ConsoleRefusal } from "./console-refusal";
import { moderatorOf } from "./moderation-parts";
import { PERIODS, PeriodPicker, StatementFields } from "./statement-fields";

type T = ConsoleEnv["Variables"]["t"];

/** The statement's fields of a console form. */
export const StatementForm = {
  ground: v.optional(v.union([v.literal(""), v.picklist(DECISION_GROUNDS)])),
  fact_template: v.optional(v.pipe(v.string(), v.maxLength(60))),
  facts: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(2000))),
  law: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(300))),
};
const WithStatement = v.object({
  reason: Reason,
  asked_by_member: v.optional(v.literal("yes")),
  ...StatementForm,
});
const Restrict = v.object({
  measure: v.picklist(["restrict_chat", "restrict_search", "suspend"], "Choose the measure."),
  period: v.picklist(PERIODS, "Choose how long it lasts."),
  ...StatementForm,
});

function statementOf(input: v.InferOutput<v.ObjectSchema<typeof StatementForm, undefined>>): ConsoleStatement {
  return {
    ground: input.ground || null,
    factTemplate: input.fact_template || null,
    facts: input.facts || null,
    law: input.law || null,
  };
}

/** The reason and the statement of a disabling or deletion asked from the Members screen; refused when incomplete. */
export async function readStatementForm(
  c: Context<ConsoleEnv>,
  outcome: "disable" | "delete",
): Promise<{ reason: string; statement: ConsoleStatement | undefined }> {
  const input = await readForm(c, WithStatement);
  // A deletion the member asked for (by phone, in writing) restricts nothing: no statement, no decision.
  if (outcome === "delete" && input.asked_by_member === "yes") return { reason: input.reason, statement: undefined };
  const statement = statementOf(input);
  const problem = statementProblem(outcome, statement);
  if (problem) throw new ConsoleRefusal(400, "statement_incomplete", problem);
  return { reason: input.reason, statement };
}

/** POST /members/:id/restrict: a chat or search restriction or a suspension, for a period. */
export async function restrictMember(c: Context<ConsoleEnv>, profileId: number | null, userId: number) {
  const input = await readForm(c, Restrict);
  if (profileId === null) throw new ConsoleRefusal(409, "no_profile", "This member has no profile.");
  try {
    await restrictFromConsole(moderatorOf(c), {
      profileId,
      outcome: input.measure,
      period: input.period,
      statement: statementOf(input),
    });
  } catch (error) {
    if (error instanceof ModerationRefusal) throw new ConsoleRefusal(error.status, error.code, error.message);
    throw error;
  }
  return actionDone(c, `/members/${userId}`);
}

/** POST /members/:id/decisions/:decision/lift: a timed measure lifted early, with a reason; the member is told. */
export async function liftFromConsole(c: Context<ConsoleEnv>, userId: number) {
  const { reason } = await readForm(c, v.object({ reason: Reason }));
  const m = moderatorOf(c);
  const decisionId = idParam(c.req.param("decision"));
  const mine = (await decisionsAbout(m.db, userId)).some((d) => d.id === decisionId);
  if (!mine) throw new ConsoleRefusal(404, "not_found", "This member has no such decision.");
  try {
    await liftMeasure(m, decisionId, reason, (id) => tellLifted(m.env, m.db, id));
  } catch (error) {
    if (error instanceof LiftRefusal) throw new ConsoleRefusal(error.status, "not_liftable", error.message);
    throw error;
  }
  return actionDone(c, `/members/${userId}`);
}

/** The choice of a deletion: the member asked for it, or a measure with its statement. */
export function DeletionFields({ t }: { t: T }) {
  return (
    <>
      <label style={{ display: "block" }}>
        <input type="checkbox" name="asked_by_member" value="yes" /> The member asked for it (no statement of reasons)
      </label>
      <p>Otherwise, as a measure:</p>
      <StatementFields t={t} />
    </>
  );
}

/** The form of a measure for a period. */
export function RestrictForm({ base, t }: { base: string; t: T }) {
  return (
    <ActionForm action={`${base}/restrict`} label="Restrict or suspend">
      <label style={{ display: "block" }}>
        Measure{" "}
        <select name="measure" required defaultValue="">
          <option value="">choose…</option>
          <option value="restrict_chat">Restrict chat (cannot send messages)</option>
          <option value="restrict_search">Restrict search (not in search, swipe or lists)</option>
          <option value="suspend">Suspend (cannot sign in or use the app)</option>
        </select>
      </label>
      <PeriodPicker />
      <StatementFields t={t} />
    </ActionForm>
  );
}

type DecisionRow = Awaited<ReturnType<typeof decisionsAbout>>[number];

/** Whether a decision is a timed measure still in force at `now` (so it can be lifted). */
export function inForce(d: DecisionRow, now: number): boolean {
  const measure = MEASURE_OF[d.outcome as DecisionOutcome];
  return (
    TIMED_MEASURES.includes(measure) &&
    d.liftedAt === null &&
    (d.endsAt === null || d.endsAt > now) &&
    d.appealStatus !== "reversed"
  );
}

/** The decisions about a member with their measure, period and state; a measure in force can be lifted. */
export function MemberDecisions({ decisions, base, now }: { decisions: DecisionRow[]; base: string; now: number }) {
  if (decisions.length === 0) return <p>None.</p>;
  return (
    <table>
      <thead>
        <tr>
          {["#", "Decided", "Outcome", "Ground", "Facts", "By", "Until", "State", ""].map((h) => (
            <th key={h}>{h}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {decisions.map((d) => (
          <tr key={d.id}>
            <td>{d.id}</td>
            <td>{when(d.createdAt)}</td>
            <td>{d.outcome}</td>
            <td>{d.ground ?? ""}</td>
            <td>{[d.factTemplate, d.facts].filter(Boolean).join(": ")}</td>
            <td>{d.operator ?? ""}</td>
            <td>
              {d.endsAt
                ? when(d.endsAt)
                : TIMED_MEASURES.includes(MEASURE_OF[d.outcome as DecisionOutcome])
                  ? "until lifted"
                  : ""}
            </td>
            <td>
              {d.liftedAt
                ? `lifted ${when(d.liftedAt)}`
                : d.appealStatus === "reversed"
                  ? "reversed on appeal"
                  : inForce(d, now)
                    ? "in force"
                    : d.endsAt && d.endsAt <= now
                      ? "ended"
                      : ""}
            </td>
            <td>{inForce(d, now) && <ActionForm action={`${base}/decisions/${d.id}/lift`} label="Lift now" />}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
