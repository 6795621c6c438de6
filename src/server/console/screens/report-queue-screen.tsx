/**
 * Open reports and complaints (moderators), oldest first: the report, the member it is about with
 * their photos and profile, the messages the reporter could see around it, earlier reports and
 * decisions about the same member; decide dismiss, warn, remove the content, restrict or disable.
 */
import { Hono } from "hono";
import * as v from "valibot";
import { countOpenReports, openReports, otherReportsAbout, reportById, reporterProfile } from "../../db/moderation";
import { decideReport } from "../../services/moderation";
import { DECISION_GROUNDS, REPORT_OUTCOMES } from "../../../shared/moderation";
import type { ConsoleEnv, ConsoleScreen } from "../console-context";
import { actionDone, idParam, readForm, wantsJson } from "../console-forms";
import { FormError, QueuePager, queuePage, QueueTable, renderConsole, when } from "../console-page";
import { ConsoleRefusal } from "../console-refusal";
import { MemberPanel, memberPanelData, messagesSeen, moderatorOf, SeenMessages } from "../moderation-parts";
import { ItemPicker, PERIODS, PeriodPicker, StatementFields } from "../statement-fields";

const Decide = v.object({
  outcome: v.picklist(REPORT_OUTCOMES, "Choose a decision."),
  ground: v.optional(v.union([v.literal(""), v.picklist(DECISION_GROUNDS)])),
  fact_template: v.optional(v.pipe(v.string(), v.maxLength(60))),
  facts: v.pipe(v.string(), v.trim(), v.maxLength(2000)),
  law: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(300))),
  period: v.optional(v.union([v.literal(""), v.picklist(PERIODS)])),
  item: v.optional(v.pipe(v.string(), v.maxLength(30))),
});

/** The graded measures, mildest first (docs/decisions/0061); "restrict" stays for the command line only. */
const OUTCOME_LABELS: Partial<Record<(typeof REPORT_OUTCOMES)[number], string>> = {
  dismiss: "Dismiss (no rule broken)",
  warn: "Warn the member",
  remove_item: "Remove one item (choose it below)",
  remove_content: "Remove all content (the profile's text and every photo)",
  restrict_chat: "Restrict chat for a period (cannot send messages)",
  restrict_search: "Restrict search for a period (not in search, swipe or lists)",
  suspend: "Suspend for a period (cannot sign in or use the app)",
  disable: "Disable the account (ends every session at once)",
};
const routes = new Hono<ConsoleEnv>()
  .get("/", async (c) => {
    const { page, size, offset } = queuePage(c);
    const [rows, total] = await Promise.all([openReports(c.var.db, size, offset), countOpenReports(c.var.db)]);
    if (wantsJson(c)) return c.json({ reports: rows, total, page });
    const t = c.var.t;
    const now = Math.floor(Date.now() / 1000);
    return renderConsole(
      c,
      "Open reports",
      total === 0 ? (
        <p className="notice">No report is open.</p>
      ) : (
        <>
          <QueuePager path="/reports" page={page} size={size} total={total} shown={rows.length} />
          <QueueTable
            head={["Subject", "About", "Site"]}
            now={now}
            items={rows.map((row) => ({
              id: row.id,
              link: <a href={`/reports/${row.id}`}>{`Report ${row.id}`}</a>,
              since: row.createdAt,
              cells: [
                t(`reports.subjects.${row.subject}`),
                row.profileId === null
                  ? "(a complaint)"
                  : `${row.profileName ?? "?"} (profile ${row.profileId})${row.messageId === null ? "" : `, message ${row.messageId}`}`,
                row.siteDomain,
              ],
            }))}
          />
        </>
      ),
    );
  })
  .get("/:id", async (c) => {
    const db = c.var.db;
    const report = await reportById(db, idParam(c.req.param("id")));
    if (!report) throw new ConsoleRefusal(404, "not_found", "There is no such report.");
    const t = c.var.t;
    const reporter = report.reporterUserId === null ? undefined : await reporterProfile(db, report.reporterUserId);
    const [panel, earlier, messages] = await Promise.all([
      report.profileId === null ? null : memberPanelData(db, report.profileId),
      report.profileId === null ? [] : otherReportsAbout(db, report.profileId, report.id),
      reporter && report.profileId !== null ? messagesSeen(c.env, reporter.id, report.profileId, report.messageId) : [],
    ]);
    if (wantsJson(c))
      return c.json({
        report: { ...report, clientAddress: undefined },
        member: panel?.member ?? null,
        earlier,
        messages,
      });
    return renderConsole(
      c,
      `Report ${report.id}`,
      <>
        <fieldset>
          <legend>{t(`reports.subjects.${report.subject}`)}</legend>
          <p>{`Filed ${when(report.createdAt)} on ${report.siteDomain} by ${reporter ? `member ${reporter.name} (profile ${reporter.id})` : "a visitor"}, ${report.email}; status ${report.status}.`}</p>
          <p style={{ whiteSpace: "pre-wrap" }}>{report.description}</p>
          {report.messageId !== null && <p>{`It names message ${report.messageId} of their conversation.`}</p>}
        </fieldset>
        {messages.length > 0 && (
          <SeenMessages messages={messages} reporterId={reporter?.id ?? null} markedId={report.messageId} />
        )}
        {report.status === "open" ? (
          <form method="post" action={`/reports/${report.id}/decide`}>
            <fieldset>
              <legend>Decide</legend>
              {Object.entries(OUTCOME_LABELS).map(([outcome, label]) => (
                <label key={outcome} style={{ display: "block" }}>
                  <input type="radio" name="outcome" value={outcome} required /> {label}
                </label>
              ))}
              <ItemPicker
                photos={panel?.photos ?? []}
                hasText={Boolean(panel?.member.aboutMe)}
                messageId={report.messageId}
              />
              <PeriodPicker />
              <StatementFields t={t} />
              <button type="submit">Decide</button>
              <FormError />
            </fieldset>
          </form>
        ) : (
          <p className="notice">{`Decided ${when(report.handledAt)}: ${report.status}${report.operatorNote ? ` (${report.operatorNote})` : ""}.`}</p>
        )}
        {panel && <MemberPanel data={panel} t={t} />}
        {earlier.length > 0 && (
          <fieldset>
            <legend>Earlier reports about this member</legend>
            <ul>
              {earlier.map((other) => (
                <li key={other.id}>
                  <a href={`/reports/${other.id}`}>{`Report ${other.id}`}</a>
                  {` ${when(other.createdAt)}, ${t(`reports.subjects.${other.subject}`)}, ${other.status}${other.note ? `: ${other.note}` : ""}`}
                </li>
              ))}
            </ul>
          </fieldset>
        )}
      </>,
    );
  })
  .post("/:id/decide", async (c) => {
    const input = await readForm(c, Decide);
    await decideReport(moderatorOf(c), {
      reportId: idParam(c.req.param("id")),
      outcome: input.outcome,
      ground: input.ground || null,
      facts: input.facts,
      factTemplate: input.fact_template || null,
      law: input.law || null,
      period: input.period || null,
      item: input.item || null,
    });
    return actionDone(c, "/reports");
  });

export const reportQueueScreen: ConsoleScreen = { path: "/reports", label: "Reports", role: "moderator", routes };
