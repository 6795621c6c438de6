/**
 * Appeals (moderators), oldest first, a page at a time with their true count and waiting time. An
 * appeal's page shows the member's words beside the decision they contest and the evidence it was
 * made on: the refused photo, the report and the messages the reporter could see, the removed text
 * and photos. Upheld or reversed by an operator other than the one who decided first (DSA Art. 20).
 */
import { Hono } from "hono";
import * as v from "valibot";
import {
  appealById,
  countOpenAppeals,
  decisionById,
  openAppeals,
  photoById,
  reportById,
  reporterProfile,
} from "../../db/moderation";
import { decideAppeal, keptContentOf } from "../../services/moderation";
import type { ConsoleEnv, ConsoleScreen } from "../console-context";
import { actionDone, idParam, readForm, Reason, wantsJson } from "../console-forms";
import { FormError, QueuePager, queuePage, QueueTable, renderConsole, when } from "../console-page";
import { ConsoleRefusal } from "../console-refusal";
import { MemberPanel, memberPanelData, messagesSeen, moderatorOf, PhotoImage, SeenMessages } from "../moderation-parts";

const Decide = v.object({ decision: v.picklist(["uphold", "reverse"], "Choose uphold or reverse."), note: Reason });

const routes = new Hono<ConsoleEnv>()
  .get("/", async (c) => {
    const { page, size, offset } = queuePage(c);
    const [rows, total] = await Promise.all([openAppeals(c.var.db, size, offset), countOpenAppeals(c.var.db)]);
    if (wantsJson(c)) return c.json({ appeals: rows, total, page });
    const t = c.var.t;
    const now = Math.floor(Date.now() / 1000);
    return renderConsole(
      c,
      "Appeals",
      total === 0 ? (
        <p className="notice">No appeal is waiting.</p>
      ) : (
        <>
          <QueuePager path="/appeals" page={page} size={size} total={total} shown={rows.length} />
          <QueueTable
            head={["Decision appealed", "Decided by"]}
            now={now}
            items={rows.map((appeal) => ({
              id: appeal.id,
              link: <a href={`/appeals/${appeal.id}`}>{`Appeal ${appeal.id}`}</a>,
              since: appeal.createdAt,
              cells: [
                `Decision ${appeal.decisionId}: ${appeal.outcome}${appeal.ground ? ` (${t(`moderation.grounds.${appeal.ground}.name`)})` : ""}${appeal.profileId ? `, profile ${appeal.profileId}` : ""}`,
                `${appeal.decidedBy ?? "?"}${appeal.operatorId === c.var.operator.id ? " (you: another operator decides)" : ""}`,
              ],
            }))}
          />
        </>
      ),
    );
  })
  .get("/:id", async (c) => {
    const db = c.var.db;
    const appeal = await appealById(db, idParam(c.req.param("id")));
    if (!appeal) throw new ConsoleRefusal(404, "not_found", "There is no such appeal.");
    const first = await decisionById(db, appeal.decisionId);
    if (!first) throw new ConsoleRefusal(404, "not_found", "The decision appealed is gone.");
    const t = c.var.t;
    const photoId = first.photoId ?? first.detachedPhotoId;
    const reportId = first.reportId ?? first.detachedReportId;
    const [photo, report, panel] = await Promise.all([
      photoId === null ? undefined : photoById(db, photoId),
      reportId === null ? undefined : reportById(db, reportId),
      first.profileId === null ? null : memberPanelData(db, first.profileId),
    ]);
    const reporter = report?.reporterUserId ? await reporterProfile(db, report.reporterUserId) : undefined;
    const messages =
      report && reporter && report.profileId !== null
        ? await messagesSeen(c.env, reporter.id, report.profileId, report.messageId)
        : [];
    const kept = keptContentOf(first);
    const removedPhotos = kept?.photos ?? [];
    return renderConsole(
      c,
      `Appeal ${appeal.id}`,
      <>
        <fieldset>
          <legend>{`The decision appealed: ${first.id}, ${when(first.createdAt)}`}</legend>
          <p>{`${first.outcome}${first.ground ? `, on ${t(`moderation.grounds.${first.ground}.name`)}` : ""}; decided by ${panel?.decisions.find((d) => d.id === first.id)?.operator ?? `operator ${first.operatorId}`}.`}</p>
          {first.facts && <p style={{ whiteSpace: "pre-wrap" }}>{`Facts: ${first.facts}`}</p>}
        </fieldset>
        <fieldset>
          <legend>
            {appeal.byNotifier
              ? `The notifier contests the dismissal, filed ${when(appeal.createdAt)} (reversed: the report opens again for a new decision)`
              : `The member's appeal, filed ${when(appeal.createdAt)}`}
          </legend>
          <p style={{ whiteSpace: "pre-wrap" }}>{appeal.text}</p>
        </fieldset>
        <h2>The evidence the decision was made on</h2>
        {photo && (
          <fieldset data-evidence="photo">
            <legend>{`The refused photo (#${photo.id}, uploaded ${when(photo.createdAt)}, now ${photo.status})`}</legend>
            <PhotoImage id={photo.id} size="full" label={`Photo ${photo.id}, refused`} />
          </fieldset>
        )}
        {report && (
          <fieldset data-evidence="report">
            <legend>{`Report ${report.id}: ${t(`reports.subjects.${report.subject}`)}`}</legend>
            <p>{`Filed ${when(report.createdAt)} on ${report.siteDomain} by ${reporter ? `member ${reporter.name} (profile ${reporter.id})` : "a visitor"}.`}</p>
            <p style={{ whiteSpace: "pre-wrap" }}>{report.description}</p>
            {report.messageId !== null && <p>{`It names message ${report.messageId} of their conversation.`}</p>}
          </fieldset>
        )}
        {kept?.message && (
          <fieldset data-evidence="removed-message">
            <legend>{`The removed message #${kept.message.id}, as it was`}</legend>
            <p style={{ whiteSpace: "pre-wrap" }}>{kept.message.body ?? `(${kept.message.kind})`}</p>
          </fieldset>
        )}
        {messages.length > 0 && (
          <SeenMessages
            messages={messages}
            reporterId={reporter?.id ?? null}
            markedId={report?.messageId ?? null}
            legend="The conversation as the reporter sees it"
          />
        )}
        {kept && (kept.aboutMe !== null || removedPhotos.length > 0) && (
          <fieldset data-evidence="removed-content">
            <legend>The profile's content the decision removed</legend>
            <p style={{ whiteSpace: "pre-wrap" }}>
              <strong>About me: </strong>
              {kept.aboutMe ?? "(empty)"}
            </p>
            <div style={{ display: "flex", gap: ".5rem", flexWrap: "wrap" }}>
              {removedPhotos.map((p) => (
                <figure key={p.id} style={{ margin: 0 }}>
                  <PhotoImage id={p.id} size="thumb" label={`Photo ${p.id}, removed`} />
                  <figcaption>{`#${p.id}, was ${p.status}`}</figcaption>
                </figure>
              ))}
            </div>
          </fieldset>
        )}
        {!photo && !report && !kept && <p className="notice">This decision was not made on a report or a photo.</p>}
        {appeal.status !== "open" ? (
          <p className="notice">{`Decided ${when(appeal.decidedAt)}: ${appeal.status}${appeal.note ? ` (${appeal.note})` : ""}.`}</p>
        ) : first.operatorId === c.var.operator.id ? (
          <p className="notice">You took this decision: another operator decides the appeal.</p>
        ) : (
          <form method="post" action={`/appeals/${appeal.id}/decide`}>
            <fieldset>
              <legend>Decide</legend>
              <label className="inline">
                <input type="radio" name="decision" value="uphold" required /> Uphold the decision
              </label>
              <label className="inline">
                <input type="radio" name="decision" value="reverse" /> Reverse it (undone at once: content, photos,
                restriction, account)
              </label>
              <label>
                Why, in the member's language (they read it in the mail and on their decision page)
                <br />
                <textarea name="note" required minLength={3} rows={3} cols={70} maxLength={1000} />
              </label>
              <button type="submit">Decide</button>
              <FormError />
            </fieldset>
          </form>
        )}
        {panel && <MemberPanel data={panel} t={t} />}
      </>,
    );
  })
  .post("/:id/decide", async (c) => {
    const { decision, note } = await readForm(c, Decide);
    await decideAppeal(moderatorOf(c), { appealId: idParam(c.req.param("id")), reverse: decision === "reverse", note });
    return actionDone(c, "/appeals");
  });

export const appealQueueScreen: ConsoleScreen = { path: "/appeals", label: "Appeals", role: "moderator", routes };
