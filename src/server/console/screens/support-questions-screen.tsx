/**
 * Support's questions (docs/decisions/0062): what members and visitors ask through /complaints about
 * billing, their account, their data or anything that is no notice about content, oldest first.
 * Support answers each by mail; the moderators' report queue never shows them.
 */
import { Hono } from "hono";
import * as v from "valibot";
import {
  answerSupportQuestionQuery,
  countOpenSupportQuestions,
  openSupportQuestions,
  supportQuestionById,
} from "../../db/support-questions";
import { mailSupportAnswer } from "../../services/notifier";
import { runAudited } from "../audited-action";
import type { ConsoleEnv, ConsoleScreen } from "../console-context";
import { actionDone, idParam, readForm, wantsJson } from "../console-forms";
import { FormError, QueuePager, queuePage, QueueTable, renderConsole, when } from "../console-page";
import { ConsoleRefusal } from "../console-refusal";

const Answer = v.object({
  answer: v.pipe(v.string(), v.trim(), v.minLength(10, "Write the answer the asker will read."), v.maxLength(4000)),
});

const routes = new Hono<ConsoleEnv>()
  .get("/", async (c) => {
    const { page, size, offset } = queuePage(c);
    const [rows, total] = await Promise.all([
      openSupportQuestions(c.var.db, size, offset),
      countOpenSupportQuestions(c.var.db),
    ]);
    if (wantsJson(c)) return c.json({ questions: rows, total, page });
    const t = c.var.t;
    return renderConsole(
      c,
      "Support questions",
      total === 0 ? (
        <p className="notice">No question is waiting.</p>
      ) : (
        <>
          <QueuePager path="/questions" page={page} size={size} total={total} shown={rows.length} />
          <QueueTable
            head={["Subject", "From", "Site"]}
            now={Math.floor(Date.now() / 1000)}
            items={rows.map((row) => ({
              id: row.id,
              link: <a href={`/questions/${row.id}`}>{`Question ${row.id}`}</a>,
              since: row.createdAt,
              cells: [t(`reports.subjects.${row.subject}`), row.email, row.siteDomain],
            }))}
          />
        </>
      ),
    );
  })
  .get("/:id", async (c) => {
    const question = await supportQuestionById(c.var.db, idParam(c.req.param("id")));
    if (!question) throw new ConsoleRefusal(404, "not_found", "There is no such question.");
    if (wantsJson(c)) return c.json({ question: { ...question, clientAddress: undefined } });
    return renderConsole(
      c,
      `Question ${question.id}`,
      <>
        <fieldset>
          <legend>{c.var.t(`reports.subjects.${question.subject}`)}</legend>
          <p>{`Asked ${when(question.createdAt)} on ${question.siteDomain} by ${question.email} (${question.language}); status ${question.status}.`}</p>
          <p style={{ whiteSpace: "pre-wrap" }}>{question.description}</p>
        </fieldset>
        {question.status === "open" ? (
          <form method="post" action={`/questions/${question.id}/answer`}>
            <fieldset>
              <legend>Answer</legend>
              <label>
                {`The answer, mailed to ${question.email} in their language's frame`}
                <br />
                <textarea name="answer" rows={6} cols={70} maxLength={4000} required />
              </label>
              <button type="submit">Send the answer</button>
              <FormError />
            </fieldset>
          </form>
        ) : (
          <p
            className="notice"
            style={{ whiteSpace: "pre-wrap" }}
          >{`Answered ${when(question.handledAt)}: ${question.operatorNote ?? ""}`}</p>
        )}
      </>,
    );
  })
  .post("/:id/answer", async (c) => {
    const id = idParam(c.req.param("id"));
    const { answer } = await readForm(c, Answer);
    const question = await supportQuestionById(c.var.db, id);
    if (!question) throw new ConsoleRefusal(404, "not_found", "There is no such question.");
    const now = Math.floor(Date.now() / 1000);
    const answered = await runAudited(
      c,
      {
        action: "support.answer",
        target: { kind: "report", id },
        before: { status: "open" },
        after: { status: "resolved" },
        reason: answer,
      },
      [answerSupportQuestionQuery(c.var.db, id, answer, now)],
      { onlyIfChanged: true, now },
    );
    if (!answered) throw new ConsoleRefusal(409, "already_decided", "This question was answered already.");
    await mailSupportAnswer(c.env, question, answer);
    return actionDone(c, "/questions");
  });

export const supportQuestionsScreen: ConsoleScreen = {
  path: "/questions",
  label: "Questions",
  role: "support",
  routes,
};
