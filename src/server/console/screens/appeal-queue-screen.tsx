/**
 * Appeals (moderators), oldest first: the member's words beside the decision they contest. Upheld
 * or reversed by an operator other than the one who decided first (DSA Art. 20).
 */
import { Hono } from "hono";
import * as v from "valibot";
import { openAppeals } from "../../db/moderation";
import { decideAppeal } from "../../services/moderation";
import type { ConsoleEnv, ConsoleScreen } from "../console-context";
import { actionDone, idParam, readForm, Reason } from "../console-forms";
import { FormError, renderConsole, when } from "../console-page";
import { moderatorOf } from "../moderation-parts";

const Decide = v.object({ decision: v.picklist(["uphold", "reverse"], "Choose uphold or reverse."), note: Reason });

const routes = new Hono<ConsoleEnv>()
  .get("/", async (c) => {
    const rows = await openAppeals(c.var.db);
    const t = c.var.t;
    return renderConsole(
      c,
      "Appeals",
      rows.length === 0 ? (
        <p className="notice">No appeal is waiting.</p>
      ) : (
        <>
          {rows.map((appeal) => (
            <fieldset key={appeal.id}>
              <legend>{`Appeal ${appeal.id}, filed ${when(appeal.createdAt)}`}</legend>
              <p>{`Decision ${appeal.decisionId}: ${appeal.outcome}${appeal.ground ? ` (${t(`moderation.grounds.${appeal.ground}.name`)})` : ""} by ${appeal.decidedBy ?? "?"}${appeal.profileId ? `, profile ${appeal.profileId}` : ""}.`}</p>
              {appeal.facts && <p>{`Facts: ${appeal.facts}`}</p>}
              <p style={{ whiteSpace: "pre-wrap" }}>
                <strong>The member writes: </strong>
                {appeal.text}
              </p>
              {appeal.operatorId === c.var.operator.id ? (
                <p className="notice">You took this decision: another operator decides the appeal.</p>
              ) : (
                <form method="post" action={`/appeals/${appeal.id}/decide`}>
                  <label className="inline">
                    <input type="radio" name="decision" value="uphold" required /> Uphold the decision
                  </label>
                  <label className="inline">
                    <input type="radio" name="decision" value="reverse" /> Reverse it
                  </label>
                  <label>
                    Why (the member reads it) <input name="note" required minLength={3} size={70} />
                  </label>
                  <button type="submit">Decide</button>
                  <FormError />
                </form>
              )}
            </fieldset>
          ))}
        </>
      ),
    );
  })
  .post("/:id/decide", async (c) => {
    const { decision, note } = await readForm(c, Decide);
    await decideAppeal(moderatorOf(c), { appealId: idParam(c.req.param("id")), reverse: decision === "reverse", note });
    return actionDone(c, "/appeals");
  });

export const appealQueueScreen: ConsoleScreen = { path: "/appeals", label: "Appeals", role: "moderator", routes };
