/**
 * Out-of-court disputes (DSA Art. 21) on the Transparency report screen (docs/decisions/0063): a
 * moderator records a dispute a certified body tells the company of, and its outcome when the body
 * closes it; the report counts them (Art. 24(1)(a)). Each is an audited action.
 */
import { Hono } from "hono";
import * as v from "valibot";
import {
  addDisputeStatement,
  closeDisputeStatement,
  decisionSiteOf,
  disputeById,
  openDisputes,
} from "../db/transparency";
import { runAudited } from "./audited-action";
import type { ConsoleEnv } from "./console-context";
import { actionDone, idParam, readForm, Reason } from "./console-forms";
import { FormError, ReasonField } from "./console-page";
import { ConsoleRefusal, requireRole } from "./console-refusal";

/** What a body may decide a dispute ended in. */
export const DISPUTE_OUTCOMES = {
  complainant: "in favour of the member (or notifier)",
  provider: "in favour of the company",
  settled: "settled",
  withdrawn: "withdrawn",
} as const;

const Day = v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/, "Give the day as YYYY-MM-DD."));
const NewDispute = v.object({
  decision: v.pipe(v.string(), v.regex(/^[1-9]\d{0,9}$/, "Give the number of the decision disputed.")),
  body: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(2, "Name the body."),
    v.maxLength(200, "The body's name is too long."),
  ),
  received: Day,
  reason: Reason,
});
const Closing = v.object({
  outcome: v.picklist(Object.keys(DISPUTE_OUTCOMES) as (keyof typeof DISPUTE_OUTCOMES)[], "Choose the outcome."),
  closed: Day,
  implemented: v.optional(v.literal("yes")),
  reason: Reason,
});

/** A day (YYYY-MM-DD) as the second it starts, refused when it is no day or after today. */
function dayStart(day: string, now: number, field: string): number {
  const at = Date.parse(`${day}T00:00:00Z`) / 1000;
  if (!Number.isFinite(at) || new Date(at * 1000).toISOString().slice(0, 10) !== day)
    throw new ConsoleRefusal(400, "invalid_parameter", `${field}: there is no such day.`);
  if (at > now) throw new ConsoleRefusal(400, "invalid_parameter", `${field}: the day has not come yet.`);
  return at;
}

export const disputeRoutes = new Hono<ConsoleEnv>()
  .post("/", async (c) => {
    requireRole(c, "moderator");
    const form = await readForm(c, NewDispute);
    const now = Math.floor(Date.now() / 1000);
    const receivedAt = dayStart(form.received, now, "received");
    const decisionId = Number(form.decision);
    const site = (await decisionSiteOf(c.var.db, decisionId))?.site;
    if (!site) throw new ConsoleRefusal(404, "not_found", `There is no decision ${decisionId} of a site.`);
    const dispute = { decisionId, siteDomain: site, body: form.body, receivedAt };
    await runAudited(
      c,
      { action: "dispute.add", target: { kind: "decision", id: decisionId }, after: dispute, reason: form.reason },
      [addDisputeStatement(c.var.db, dispute)],
    );
    return actionDone(c, "/transparency");
  })
  .post("/:id/close", async (c) => {
    requireRole(c, "moderator");
    const id = idParam(c.req.param("id"));
    const form = await readForm(c, Closing);
    const now = Math.floor(Date.now() / 1000);
    const dispute = await disputeById(c.var.db, id);
    if (!dispute) throw new ConsoleRefusal(404, "not_found", "There is no such dispute.");
    const closedAt = dayStart(form.closed, now, "closed");
    if (closedAt < dispute.receivedAt)
      throw new ConsoleRefusal(400, "invalid_parameter", "closed: a dispute closes after the body received it.");
    const closing = { outcome: form.outcome, closedAt, implemented: form.implemented === "yes" };
    const closed = await runAudited(
      c,
      {
        action: "dispute.close",
        target: { kind: "dispute", id },
        before: { outcome: null },
        after: closing,
        reason: form.reason,
      },
      [closeDisputeStatement(c.var.db, id, closing)],
      { onlyIfChanged: true },
    );
    if (!closed) throw new ConsoleRefusal(409, "conflict", "The dispute was closed already; nothing was changed.");
    return actionDone(c, "/transparency");
  });

type OpenDispute = Awaited<ReturnType<typeof openDisputes>>[number];

/** The open disputes and, for a moderator, the forms to record one and to close one. */
export function DisputesPart({ open, canRecord, today }: { open: OpenDispute[]; canRecord: boolean; today: string }) {
  return (
    <>
      <h2>Out-of-court disputes (Art. 21)</h2>
      {open.length === 0 ? (
        <p>No dispute is open.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>Dispute</th>
              <th>Decision</th>
              <th>Body</th>
              <th>Received</th>
              {canRecord && <th>Close it</th>}
            </tr>
          </thead>
          <tbody>
            {open.map((d) => (
              <tr key={d.id}>
                <td>{d.id}</td>
                <td>{d.decisionId ?? ""}</td>
                <td>{d.body}</td>
                <td>{new Date(d.receivedAt * 1000).toISOString().slice(0, 10)}</td>
                {canRecord && (
                  <td>
                    <form method="post" action={`/transparency/disputes/${d.id}/close`}>
                      <select name="outcome" required defaultValue="">
                        <option value="" disabled>
                          outcome
                        </option>
                        {Object.entries(DISPUTE_OUTCOMES).map(([value, label]) => (
                          <option key={value} value={value}>
                            {label}
                          </option>
                        ))}
                      </select>{" "}
                      <input name="closed" type="date" required defaultValue={today} />{" "}
                      <label className="inline">
                        <input type="checkbox" name="implemented" value="yes" /> decision carried out
                      </label>{" "}
                      <input name="reason" required minLength={3} placeholder="reason" />{" "}
                      <button type="submit">Close</button>
                      <FormError />
                    </form>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {canRecord && (
        <form method="post" action="/transparency/disputes">
          <h3>Record a dispute a body told us of</h3>
          <label className="inline">
            Decision <input name="decision" inputMode="numeric" required size={8} />
          </label>
          <label className="inline">
            Body <input name="body" required size={30} />
          </label>
          <label className="inline">
            Received <input name="received" type="date" required defaultValue={today} />
          </label>
          <ReasonField />
          <button type="submit">Record</button>
          <FormError />
        </form>
      )}
    </>
  );
}
