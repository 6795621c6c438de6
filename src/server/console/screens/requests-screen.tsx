/**
 * Waiting requests (any operator; issue 39 point 10, docs/decisions/0060): the actions one operator
 * asked for that wait for a second operator, oldest first, with who asked, what, why, when and until
 * when; Confirm and Decline for an operator who holds the role and did not ask; then the latest
 * decided ones. Confirming runs the action once (second-operator.ts).
 */
import { Hono } from "hono";
import * as v from "valibot";
import { listRequests, type WaitingRequest } from "../../db/operator-requests";
import type { OperatorRole } from "../../db/operators";
import { ActionForm } from "../action-form";
import type { ConsoleEnv, ConsoleScreen } from "../console-context";
import { actionDone, idParam, readForm, Reason, requireConfirmation } from "../console-forms";
import { renderConsole, waited, when } from "../console-page";
import { hasRole } from "../console-refusal";
import { confirmRequest, declineRequest, expireRequests } from "../second-operator";

const WithReason = v.object({ reason: Reason });
const nowOf = () => Math.floor(Date.now() / 1000);

/** The requests waiting about what a page shows (a member's page), as a notice above its actions. */
export function WaitingFor({ requests }: { requests: readonly WaitingRequest[] }) {
  if (requests.length === 0) return null;
  return (
    <div className="waiting" role="status">
      <strong>Waiting for a second operator</strong>
      <ul>
        {requests.map(({ request, requester }) => (
          <li key={request.id}>
            {request.summary}: asked by {requester} at {when(request.requestedAt)}, until {when(request.expiresAt)}.{" "}
            <a href="/requests">Waiting requests</a>
          </li>
        ))}
      </ul>
    </div>
  );
}

function Waiting({
  rows,
  operator,
  now,
}: {
  rows: WaitingRequest[];
  operator: ConsoleEnv["Variables"]["operator"];
  now: number;
}) {
  if (rows.length === 0) return <p className="notice">Nothing is waiting for a second operator.</p>;
  return (
    <table>
      <thead>
        <tr>
          <th>#</th>
          <th>What</th>
          <th>Why</th>
          <th>Asked by, when</th>
          <th>Expires</th>
          <th>Confirm or decline</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(({ request, requester }) => {
          const own = request.requestedBy === operator.id;
          const allowed = hasRole(operator, request.role as OperatorRole);
          return (
            <tr key={request.id}>
              <td>{request.id}</td>
              <td>
                {request.summary}
                <br />
                <small>
                  waiting for a second operator with the {request.role} role ({request.action})
                </small>
              </td>
              <td>{request.reason}</td>
              <td>
                {requester}
                <br />
                {when(request.requestedAt)} ({waited(now - request.requestedAt)} ago)
              </td>
              <td>{when(request.expiresAt)}</td>
              <td>
                {own ? (
                  <p>You asked for this: another operator confirms it.</p>
                ) : allowed ? (
                  <ActionForm
                    action={`/requests/${request.id}/confirm`}
                    label="Confirm"
                    confirm={`Do it now: ${request.summary}.`}
                  />
                ) : (
                  <p>Needs the {request.role} role to confirm.</p>
                )}
                {(own || allowed) && (
                  <ActionForm action={`/requests/${request.id}/decline`} label={own ? "Withdraw" : "Decline"} />
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

const routes = new Hono<ConsoleEnv>()
  .get("/", async (c) => {
    const now = nowOf();
    await expireRequests(c, now);
    const [waiting, decided] = await Promise.all([
      listRequests(c.var.db, "waiting"),
      listRequests(c.var.db, "decided", 30),
    ]);
    return renderConsole(
      c,
      "Waiting requests",
      <>
        <p>
          Deleting or disabling an account without a report, a refund above its site&apos;s limit or asked without the
          finance role, and a generous discount code take effect only when a second operator confirms them. The operator
          who asked cannot confirm; a request not confirmed within a day expires.
        </p>
        <h2>{`Waiting for a second operator (${waiting.length})`}</h2>
        <Waiting rows={waiting} operator={c.var.operator} now={now} />
        <h2>Decided lately</h2>
        {decided.length === 0 ? (
          <p className="notice">None yet.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th>#</th>
                <th>What</th>
                <th>Asked by</th>
                <th>Outcome</th>
                <th>By, when</th>
              </tr>
            </thead>
            <tbody>
              {decided.map(({ request, requester, decider }) => (
                <tr key={request.id}>
                  <td>{request.id}</td>
                  <td>{request.summary}</td>
                  <td>{requester}</td>
                  <td>{request.outcome ? `${request.status}: ${request.outcome}` : request.status}</td>
                  <td>
                    {decider ?? "nobody in time"}, {when(request.decidedAt)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </>,
    );
  })
  .post("/:id/confirm", async (c) => {
    await requireConfirmation(c);
    const { reason } = await readForm(c, WithReason);
    await confirmRequest(c, idParam(c.req.param("id")), reason);
    return actionDone(c, "/requests");
  })
  .post("/:id/decline", async (c) => {
    const { reason } = await readForm(c, WithReason);
    await declineRequest(c, idParam(c.req.param("id")), reason);
    return actionDone(c, "/requests");
  });

export const requestsScreen: ConsoleScreen = { path: "/requests", label: "Waiting requests", role: null, routes };
