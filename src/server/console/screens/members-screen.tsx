/**
 * Member support (support or admin; issue 24 point 4): find a member by e-mail, username, profile,
 * order or payment id; see their account, profile, photos, orders, ledger, sessions, reports and the
 * mails sent to them; and act, each action with a reason, through services/member-support.ts.
 */
import { Hono, type Context } from "hono";
import type { ReactNode } from "react";
import * as v from "valibot";
import { decisionsAbout } from "../../db/moderation";
import { tellBalance } from "../../notices/tell";
import * as support from "../../services/member-support";
import { ActionForm, money, orderStatusText } from "../action-form";
import type { ConsoleEnv, ConsoleScreen } from "../console-context";
import { actionDone, idParam, readForm, Reason, requireConfirmation } from "../console-forms";
import { renderConsole, when } from "../console-page";
import { ConsoleRefusal, hasRole } from "../console-refusal";
import { askSecondOperator } from "../second-operator";
import { WaitingFor } from "./requests-screen";
import { memberAccounts, supportContext } from "../support-context";
import { REFUND_CONFIRM, refundFromConsole } from "./orders-screen";
import { waitingAbout, type WaitingRequest } from "../../db/operator-requests";
import {
  DeletionFields,
  liftFromConsole,
  MemberDecisions,
  readStatementForm,
  RestrictForm,
  restrictMember,
} from "../member-measures";
import { StatementFields } from "../statement-fields";

const WithReason = v.object({ reason: Reason });
const Correction = v.object({
  delta: v.pipe(
    v.string(),
    v.trim(),
    v.regex(/^[+-]?\d{1,6}$/, "Give a whole number of credits, such as 25 or -10."),
    v.transform(Number),
    v.check((n) => n !== 0, "A correction of 0 changes nothing."),
  ),
  reason: Reason,
});

/** The member an action is about, as the console read them; a 404 when there is none. */
async function memberOf(c: Context<ConsoleEnv>) {
  const file = await support.memberFile(c.var.db, idParam(c.req.param("id")));
  if (!file) throw new ConsoleRefusal(404, "not_found", "There is no member with that id.");
  return file;
}

const asMember = (file: support.MemberFile) => ({
  userId: file.account.userId,
  profileId: file.account.profileId,
  status: file.account.status,
});

/** An action that changed nothing: the operator is told why, and nothing was recorded. */
const unchanged = (message: string) => new ConsoleRefusal(409, "nothing_changed", message);

/**
 * A support action that needs only its reason: the member read, the action run, the operator back
 * on the member's page, or told `whenUnchanged` when it changed nothing.
 */
function memberAction(
  whenUnchanged: string,
  run: (c: Context<ConsoleEnv>, file: support.MemberFile, reason: string) => Promise<boolean>,
) {
  return async (c: Context<ConsoleEnv>) => {
    const { reason } = await readForm(c, WithReason);
    const file = await memberOf(c);
    if (!(await run(c, file, reason))) throw unchanged(whenUnchanged);
    return actionDone(c, `/members/${file.account.userId}`);
  };
}

function Search({ query, hits }: { query: string; hits: Awaited<ReturnType<typeof support.searchMembers>> | null }) {
  return (
    <>
      <form method="get" action="/members">
        <label>
          E-mail, username, profile id, order id or payment id{" "}
          <input name="q" defaultValue={query} size={40} autoFocus />
        </label>
        <button type="submit">Find</button>
      </form>
      {hits !== null &&
        (hits.length === 0 ? (
          <p className="notice">No member matches.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th>Member</th>
                <th>E-mail</th>
                <th>Username</th>
                <th>Profile</th>
                <th>Status</th>
                <th>Site</th>
                <th>Signed up</th>
              </tr>
            </thead>
            <tbody>
              {hits.map((hit) => (
                <tr key={hit.userId}>
                  <td>
                    <a href={`/members/${hit.userId}`}>#{hit.userId}</a>
                  </td>
                  <td>{hit.email}</td>
                  <td>{hit.username}</td>
                  <td>{hit.profileId ?? ""}</td>
                  <td>{hit.status}</td>
                  <td>{hit.siteDomain}</td>
                  <td>{when(hit.signupDate)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
    </>
  );
}

function Rows({ head, rows }: { head: string[]; rows: ReactNode[][] }) {
  if (rows.length === 0) return <p className="notice">None.</p>;
  return (
    <table>
      <thead>
        <tr>
          {head.map((h) => (
            <th key={h}>{h}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, i) => (
          <tr key={i}>
            {row.map((cell, j) => (
              <td key={j}>{cell}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function MemberPage({
  file,
  now,
  waiting,
  decisions,
  seesAudit,
  t,
}: {
  t: ConsoleEnv["Variables"]["t"];
  file: support.MemberFile;
  now: number;
  waiting: WaitingRequest[];
  decisions: Awaited<ReturnType<typeof decisionsAbout>>;
  /** The audit log is the admins' (decision 0034): only they are pointed to it. */
  seesAudit: boolean;
}) {
  const { account } = file;
  const base = `/members/${account.userId}`;
  const locked = (file.loginLock?.blockedUntil ?? 0) > now;
  const asked = (action: string) => waiting.some(({ request }) => request.action === action);
  return (
    <>
      <table>
        <tbody>
          {(
            [
              ["E-mail", account.email],
              ["Username / profile name", `${account.username} / ${account.name ?? ""}`],
              [
                "Status",
                `${account.status}${account.profileStatus ? ` (profile ${account.profileStatus}, ${account.searchable ? "in search" : "not in search"})` : ""}`,
              ],
              ["Site, language", `${account.siteDomain}, ${account.language}`],
              [
                "Profile",
                account.profileId === null
                  ? "none"
                  : `#${account.profileId}, ${account.gender ?? ""}, born ${account.birthDate ?? ""}, ${account.country ?? ""}${account.city ? `, ${account.city}` : ""}${account.fictional ? ", fictional" : ""}`,
              ],
              [
                "Credits",
                `${account.credits} (unheld ${file.balance?.unheld ?? 0}; ledger sum ${file.ledgerTotal})${account.paidUser ? ", premium" : ""}`,
              ],
              ["Signed up, last active", `${when(account.signupDate)}, ${when(account.lastActiveAt)}`],
              ["Invisible", account.invisible ? "yes" : "no"],
              [
                "Login lock",
                locked
                  ? `locked until ${when(file.loginLock!.blockedUntil)} (${file.loginLock!.failures} failures)`
                  : file.loginLock
                    ? `${file.loginLock.failures} recent failures, not locked`
                    : "none",
              ],
              [
                "Restricted by moderation since",
                account.restrictedAt ? `${when(account.restrictedAt)} (see the moderation decisions below)` : "",
              ],
              ["Deletion requested", when(account.deletionRequestedAt)],
            ] as const
          ).map(([label, value]) => (
            <tr key={label}>
              <th style={{ width: "14rem" }}>{label}</th>
              <td>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {account.aboutMe && <p className="notice">{account.aboutMe}</p>}

      <WaitingFor requests={waiting} />
      <h2>Act</h2>
      <div className="actions">
        {file.loginLock && <ActionForm action={`${base}/unlock`} label="Unlock login" />}
        {account.status === "not_confirmed" && (
          <ActionForm action={`${base}/resend-activation`} label="Resend activation" />
        )}
        {account.status !== "disabled" && account.profileId !== null && !asked("member.disable") && (
          <ActionForm
            action={`${base}/disable`}
            label="Ask to disable"
            confirm="Disable this account once a second operator confirms: hidden everywhere, every session ended at once."
          >
            <StatementFields t={t} />
          </ActionForm>
        )}
        {account.status === "disabled" && <ActionForm action={`${base}/enable`} label="Enable" />}
        <ActionForm action={`${base}/log-out`} label="Log out everywhere" />
        {account.profileId !== null && <RestrictForm base={base} t={t} />}
        <ActionForm action={`${base}/credits`} label="Correct credits">
          <input
            name="delta"
            required
            pattern="[+\-]?\d{1,6}"
            size={8}
            placeholder="+25 or -10"
            aria-label="Credits to add or take"
          />{" "}
        </ActionForm>
        {account.status !== "pending_deletion" && !asked("member.delete") && (
          <ActionForm
            action={`${base}/delete`}
            label="Ask to delete"
            confirm="Delete this account once a second operator confirms: pending deletion for 14 days, hidden, the way back mailed."
          >
            <DeletionFields t={t} />
          </ActionForm>
        )}
      </div>

      <h2>Photos</h2>
      <Rows
        head={["#", "Status", "Position", "Size", "Uploaded"]}
        rows={file.photos.map((p) => [p.id, p.status, p.position, `${p.width}×${p.height}`, when(p.createdAt)])}
      />

      <h2>Orders</h2>
      <Rows
        head={["#", "Site", "Status", "Credits", "Amount", "Method", "Payment", "Created", "Refunded", ""]}
        rows={file.orders.map(({ order, paymentId }) => [
          order.id,
          order.siteDomain,
          orderStatusText(order),
          order.credits,
          money(order.amountCents, order.currency),
          order.paidMethod ?? order.paymentMethod,
          paymentId,
          when(order.createdAt),
          order.refundedAt ? `${order.refundedCredits} credits, ${money(order.refundedCents, order.currency)}` : "",
          order.creditedAt !== null && order.refundedAt === null ? (
            <ActionForm action={`${base}/orders/${order.id}/refund`} label="Refund" confirm={REFUND_CONFIRM} />
          ) : null,
        ])}
      />
      <h3>Refunds and chargebacks</h3>
      <Rows
        head={["Order", "Kind", "Origin", "Status", "Amount", "Credits", "Provider id", "When"]}
        rows={file.adjustments.map((a) => [
          a.orderId,
          a.kind,
          a.origin,
          a.status,
          a.amountCents / 100,
          a.credits,
          a.providerId,
          when(a.createdAt),
        ])}
      />

      <h2>Ledger</h2>
      <Rows
        head={["#", "Change", "Reason", "About", "When"]}
        rows={file.ledger.map((row) => [
          row.id,
          row.delta > 0 ? `+${row.delta}` : row.delta,
          row.reason,
          row.ref,
          when(row.createdAt),
        ])}
      />

      <h2>Sessions</h2>
      <Rows
        head={["Id", "Device", "Started", "Last used", "Expires", "Ended"]}
        rows={file.sessions.map((s) => [
          s.publicId,
          s.device,
          when(s.createdAt),
          when(s.lastUsedAt),
          when(s.expiresAt),
          when(s.revokedAt),
        ])}
      />

      <h2>Reports</h2>
      <Rows
        head={["#", "Filed", "By / about", "Subject", "Description", "Status", "Handled"]}
        rows={file.reports.map((r) => [
          r.id,
          when(r.createdAt),
          r.reporterUserId === account.userId
            ? `by this member (about profile ${r.profileId ?? "none"})`
            : "about this member",
          r.subject,
          r.description,
          r.status,
          when(r.handledAt),
        ])}
      />

      <h2>Mails sent</h2>
      <Rows
        head={["#", "Kind", "Subject", "Written", "Sent", "Provider id"]}
        rows={file.mails.map((m) => [m.id, m.kind, m.subject, when(m.createdAt), when(m.sentAt), m.providerId])}
      />

      <h2>Moderation decisions</h2>
      <MemberDecisions decisions={decisions} base={base} now={now} />

      {seesAudit && (
        <p>
          <a href={`/audit?${new URLSearchParams({ kind: "member", target: String(account.userId) }).toString()}`}>
            This member in the audit log
          </a>
        </p>
      )}
    </>
  );
}

const routes = new Hono<ConsoleEnv>()
  .get("/", async (c) => {
    const query = c.req.query("q") ?? "";
    const hits = query.trim() ? await support.searchMembers(c.var.db, query) : null;
    return renderConsole(c, "Members", <Search query={query} hits={hits} />);
  })
  .get("/:id", async (c) => {
    const file = await memberOf(c);
    const decisions = await decisionsAbout(c.var.db, file.account.userId);
    return renderConsole(
      c,
      `Member #${file.account.userId}: ${file.account.username}`,
      <MemberPage
        file={file}
        now={Math.floor(Date.now() / 1000)}
        waiting={await waitingAbout(
          c.var.db,
          file.account.userId,
          file.orders.map(({ order }) => order.id),
        )}
        decisions={decisions}
        seesAudit={hasRole(c.var.operator, "admin")}
        t={c.var.t}
      />,
    );
  })
  .post(
    "/:id/unlock",
    memberAction("This account has no login lock.", (c, file, reason) =>
      support.unlockLogin(supportContext(c), asMember(file), file.loginLock, reason),
    ),
  )
  .post(
    "/:id/resend-activation",
    memberAction("This account is not waiting for its activation.", async (c, file, reason) =>
      support.resendActivationFor(
        supportContext(c),
        await memberAccounts(c, file.account.siteDomain),
        asMember(file),
        reason,
      ),
    ),
  )
  .post("/:id/disable", async (c) => {
    await requireConfirmation(c);
    const { reason, statement } = await readStatementForm(c, "disable");
    const file = await memberOf(c);
    const { userId, profileId, username } = file.account;
    if (file.account.status === "disabled" || profileId === null) throw unchanged("This account is disabled already.");
    // Disabling from here has no report behind it: a second operator confirms it (docs/decisions/0060).
    await askSecondOperator(c, {
      action: "member.disable",
      target: { kind: "member", id: userId },
      summary: `Disable member #${userId} (${username}): hidden everywhere, every session ended at once`,
      details: { userId, profileId, statement },
      reason,
    });
    return actionDone(c, `/members/${userId}`);
  })
  .post(
    "/:id/enable",
    memberAction("Only a disabled account can be enabled.", (c, file, reason) =>
      support.enableMember(supportContext(c), asMember(file), reason),
    ),
  )
  .post(
    "/:id/log-out",
    memberAction("This member has no live session.", (c, file, reason) =>
      support.logOutEverywhere(supportContext(c), asMember(file), reason),
    ),
  )
  .post("/:id/credits", async (c) => {
    const { delta, reason } = await readForm(c, Correction);
    const file = await memberOf(c);
    const ctx = supportContext(c);
    if (!(await support.correctCredits(ctx, asMember(file), c.var.operator.id, delta, reason)))
      throw unchanged("The member does not have that many credits free to take (some may be held by a conversation).");
    c.executionCtx.waitUntil(tellBalance(c.env, file.account.userId, ctx.now));
    return actionDone(c, `/members/${file.account.userId}`);
  })
  .post("/:id/delete", async (c) => {
    await requireConfirmation(c);
    const { reason, statement } = await readStatementForm(c, "delete");
    const file = await memberOf(c);
    const { userId, username } = file.account;
    if (file.account.status === "pending_deletion") throw unchanged("This account is pending deletion already.");
    await askSecondOperator(c, {
      action: "member.delete",
      target: { kind: "member", id: userId },
      summary: `Delete member #${userId} (${username}): pending deletion for 14 days, hidden, the way back mailed`,
      details: { userId, profileId: file.account.profileId, statement },
      reason,
    });
    return actionDone(c, `/members/${userId}`);
  })
  .post("/:id/restrict", async (c) => {
    const file = await memberOf(c);
    return restrictMember(c, file.account.profileId, file.account.userId);
  })
  .post("/:id/decisions/:decision/lift", async (c) => {
    const file = await memberOf(c);
    return liftFromConsole(c, file.account.userId);
  })
  .post("/:id/orders/:order/refund", async (c) => {
    const file = await memberOf(c);
    await requireConfirmation(c);
    await refundFromConsole(c, idParam(c.req.param("order")), file.account.userId);
    return actionDone(c, `/members/${file.account.userId}`);
  });

export const membersScreen: ConsoleScreen = { path: "/members", label: "Members", role: "support", routes };
