/**
 * The notifier's side of a notice (DSA Art. 16(5), 20 and 21; docs/decisions/0062): the reasoned
 * outcome of their report with the redress open to them, their objection to a dismissal (an appeal
 * decided by another operator than the one who dismissed), and support's answer to a question.
 * Every mail is in the language the notifier reported in; an anonymous notifier gets none.
 */
import { appealDeadline, type ReportOutcome } from "../../shared/moderation";
import { isLanguage, type Language } from "../../shared/locales";
import type { ContestBody } from "../../shared/reports";
import { withAudit, type Actor } from "../db/audit-log";
import type { Database } from "../db/database";
import { decideAppealQuery, decisionFor, detachStaleDecisionQuery, reportById, type Decision } from "../db/moderation";
import { insertNotifierAppeal, reopenReportQuery } from "../db/notifier-appeals";
import { loadSite } from "../edge/site";
import { AppError } from "../errors";
import { mailerFor } from "../mail/mailer";
import { composeMail, type MailKind } from "../mail/templates";
import { i18nFor } from "../translations";

type Report = NonNullable<Awaited<ReturnType<typeof reportById>>>;
type Appeal = { id: number; decisionId: number };
/** An operator deciding, as services/moderation.ts passes them on. */
type Operator = { env: Env; db: Database; actor: Actor & { operatorId: number }; now: number };

/** The key of the link in a dismissal's mail, by which the notifier contests it without an account. */
export async function notifierKey(secret: string, reportId: number): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(`notifier-link:${secret}`),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const signature = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`report:${reportId}`));
  return btoa(String.fromCharCode(...new Uint8Array(signature)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/**
 * Tell the notifier what became of their report (Art. 16(5)): the outcome, the rule and the
 * operator's reasons, and the redress: for a dismissal, contesting it here (the mail's button)
 * until the deadline; for every outcome, the out-of-court body and the courts.
 */
export async function tellNotifier(
  env: Env,
  report: Report,
  outcome: ReportOutcome,
  reasons: { ground?: string | null; facts?: string | null },
  decidedAt: number,
): Promise<void> {
  const dismissed = outcome === "dismiss";
  const language = languageOf(report.language);
  const t = i18nFor(language).t;
  const key = dismissed ? await notifierKey(env.SESSION_SECRET, report.id) : "";
  const rule = reasons.ground ? t(`moderation.grounds.${reasons.ground}.rule`) : "";
  await mailNotifier(env, report, dismissed ? "notice_dismissed" : "notice_outcome", (origin) => ({
    link: dismissed ? `${origin}/complaints?contest=${report.id}&key=${key}` : `${origin}/complaints`,
    values: {
      outcome: t(`moderation.report_outcomes.${outcome}`),
      reasons_part: [rule, reasons.facts ? t("reports.outcome_mail.reasons", { reason: reasons.facts }) : ""]
        .filter(Boolean)
        .join(" "),
      contest_part: dismissed
        ? t("reports.outcome_mail.contest", { date: dayOf(appealDeadline(decidedAt), language) })
        : "",
    },
  }));
}

/**
 * The notifier contests the dismissal of their report (Art. 20(1)): by the mailed link's key, or as
 * the member who filed it; once, within six months of the dismissal. The receipt is mailed.
 */
export async function contestDismissal(
  env: Env,
  db: Database,
  caller: { userId: number } | null,
  body: ContestBody,
  now: number,
): Promise<{ id: number }> {
  const report = await reportById(db, body.report_id);
  const byKey = body.key !== undefined && body.key === (await notifierKey(env.SESSION_SECRET, body.report_id));
  const byAccount = caller !== null && report?.reporterUserId === caller.userId;
  const decision = report && (byKey || byAccount) ? await decisionFor(db, { reportId: report.id }) : undefined;
  if (!report || !decision || decision.outcome !== "dismiss")
    throw new AppError({ status: 404, code: "not_found", key: "reports.errors.contest_not_found" });
  if (appealDeadline(decision.createdAt) < now)
    throw new AppError({ status: 400, code: "appeal_closed", key: "reports.errors.contest_closed" });
  const id = await insertNotifierAppeal(
    db,
    { decisionId: decision.id, userId: report.reporterUserId, text: body.text, notBefore: 0 },
    now,
  );
  if (id === null)
    throw new AppError({ status: 409, code: "already_appealed", key: "reports.errors.already_contested" });
  await mailNotifier(env, report, "contest_receipt", (origin) => ({ link: `${origin}/complaints`, values: {} }));
  return { id };
}

/**
 * Decide a notifier's objection (called by decideAppeal once it checked that another operator than
 * the one who dismissed decides it): upheld, the dismissal stands; reversed, the report opens again
 * in the moderators' queue for a new decision. The notifier gets the reasoned answer. False when
 * the objection was decided by someone else a moment ago.
 */
export async function decideNotifierAppeal(
  m: Operator,
  appeal: Appeal,
  first: Decision,
  input: { reverse: boolean; note: string },
): Promise<boolean> {
  const report = first.reportId === null ? undefined : await reportById(m.db, first.reportId);
  const status = input.reverse ? "reversed" : "upheld";
  const reopen =
    input.reverse && report
      ? [reopenReportQuery(m.db, report.id), detachStaleDecisionQuery(m.db, { reportId: report.id })]
      : [];
  const batch = withAudit(
    m.db,
    m.actor,
    {
      action: `appeal.${status}`,
      target: { kind: "appeal", id: appeal.id },
      before: { status: "open", decision: first.id, outcome: first.outcome, by_notifier: true },
      after: { status, ...(reopen.length > 0 ? { report_reopened: report!.id } : {}) },
      reason: input.note,
    },
    [decideAppealQuery(m.db, appeal.id, m.actor.operatorId, status, input.note, m.now), ...reopen],
    m.now,
    true,
  );
  const results = await m.db.batch(batch);
  if (((results[0] as { meta?: { changes?: number } }).meta?.changes ?? 0) === 0) return false;
  if (report) {
    const t = i18nFor(languageOf(report.language)).t;
    await mailNotifier(m.env, report, "contest_outcome", (origin) => ({
      link: `${origin}/complaints`,
      values: { outcome: t(`reports.contest_outcomes.${status}`), reason: input.note },
    }));
  }
  return true;
}

/** Support's answer to a question sent through /complaints, mailed in the asker's language. */
export async function mailSupportAnswer(env: Env, report: Report, answer: string): Promise<void> {
  await mailNotifier(env, report, "support_answer", (origin) => ({
    link: `${origin}/pages/service`,
    values: { text: answer },
  }));
}

/** One mail to the notifier of `report`, with the redress line every notifier's mail ends with. */
async function mailNotifier(
  env: Env,
  report: Report,
  kind: MailKind,
  content: (origin: string) => { link: string; values: Record<string, string> },
): Promise<void> {
  if (!report.email) return;
  try {
    const site = await loadSite(env.SETTINGS, report.siteDomain);
    const origin = `https://${site?.settings.domain ?? report.siteDomain}`;
    const t = i18nFor(languageOf(report.language)).t;
    const body = site?.company?.dispute_body;
    const { link, values } = content(origin);
    const redress = body
      ? t("moderation.page.other_remedies_body", { name: body.name, url: body.url })
      : t("moderation.page.other_remedies");
    await mailerFor(env).send(
      composeMail(
        t,
        kind,
        { address: report.email, name: report.reporterName ?? report.email.split("@")[0]! },
        { name: site?.settings.name ?? report.siteDomain, company: site?.company ?? null },
        link,
        { id: report.id, redress_part: redress, ...values },
      ),
    );
  } catch (error) {
    // What was decided stands; only the mail failed (logged for the operators).
    console.warn(
      JSON.stringify({
        event: "notifier_mail_failed",
        kind,
        report: report.id,
        message: error instanceof Error ? error.message : String(error),
      }),
    );
  }
}

const languageOf = (language: string): Language => (isLanguage(language) ? language : "en");
const dayOf = (seconds: number, language: Language) =>
  new Date(seconds * 1000).toLocaleDateString(language, {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
