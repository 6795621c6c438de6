import type { Translate } from "../../shared/translator";
import type { Mail } from "./mailer";
import { companyAddressLines } from "../../shared/company";
import type { CompanyInfo } from "../../shared/settings";

/** The notification mails (notification_mail.* in locales/), each sent under one e-mail kind the member can turn off. */
export const NOTIFICATION_MAILS = [
  "new_conversation",
  "new_message",
  "like",
  "match",
  "unread_reminder",
  "weekly_update",
  "activation_reminder",
] as const;
export type NotificationMail = (typeof NOTIFICATION_MAILS)[number];

export type MailKind =
  | "activation"
  | "reset"
  | "mail_change"
  | "deletion"
  | "report"
  | "support_question"
  | "support_answer"
  | "notice_outcome"
  | "notice_dismissed"
  | "contest_receipt"
  | "contest_outcome"
  | "statement"
  | "report_outcome"
  | "appeal_outcome"
  | "appeal_receipt"
  | "notice"
  | "lifted"
  | NotificationMail;

/** Where each kind keeps its subject, text and button in locales/ (a feature's mail lives in its own namespace). */
const TEXTS: Record<MailKind, string> = {
  activation: "mail.activation",
  reset: "mail.reset",
  mail_change: "mail.mail_change",
  deletion: "mail.deletion",
  report: "reports.mail",
  support_question: "reports.support_mail",
  support_answer: "reports.support_answer_mail",
  notice_outcome: "reports.outcome_mail",
  notice_dismissed: "reports.dismissed_mail",
  contest_receipt: "reports.contest_mail.receipt",
  contest_outcome: "reports.contest_mail.outcome",
  statement: "moderation.mail.statement",
  report_outcome: "moderation.mail.report_outcome",
  appeal_outcome: "moderation.mail.appeal_outcome",
  appeal_receipt: "moderation.mail.appeal_receipt",
  notice: "moderation.mail.notice",
  lifted: "moderation.mail.lifted",
  ...(Object.fromEntries(NOTIFICATION_MAILS.map((kind) => [kind, `notification_mail.${kind}`])) as Record<
    NotificationMail,
    string
  >),
};

/**
 * Mails about moderation decisions (the member must read them, or filed the appeal themselves): no
 * "ignore this mail" line. `notice`: the statement of a decision that restricts nothing and so has
 * no appeal (a warning, a refused verification selfie).
 */
const TOLD_WITHOUT_ASKING = new Set<MailKind>([
  "statement",
  "notice",
  "report_outcome",
  "notice_outcome",
  "notice_dismissed",
  "contest_receipt",
  "contest_outcome",
  "support_answer",
  "appeal_outcome",
  "appeal_receipt",
  "lifted",
]);
/**
 * Mails whose silence changes the account (the deletion goes ahead unless the member acts): in place
 * of "you can ignore this mail", what to do when the member did not ask for it.
 */
const NOT_TO_IGNORE: Partial<Record<MailKind, string>> = { deletion: "mail.deletion.not_asked" };

/** The way out of a notification mail: the signed one-click unsubscribe link and the settings page. */
export type MailFooter = { unsubscribe: string; settings: string };

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** Who a mail is from: the site's name, and the company behind it, named under the signature as on the legal pages. */
export type MailSender = { name: string; company: CompanyInfo | null };

/**
 * A mail in the member's language: greeting, what it is about, the link as a button, the signature
 * and the company's name, address and registration (shared/company.ts, as the legal pages write them).
 */
export function composeMail(
  t: Translate,
  kind: MailKind,
  to: { address: string; name: string },
  sender: MailSender,
  link: string,
  values: Record<string, string | number> = {},
  footer?: MailFooter,
): Mail {
  const site = sender.name;
  const all = { site, name: to.name, ...values };
  const company = sender.company ? [sender.company.name, ...companyAddressLines(sender.company, t)] : [];
  const subject = t(`${TEXTS[kind]}.subject`, all);
  const greeting = t("mail.greeting", all);
  const body = t(`${TEXTS[kind]}.text`, all);
  const button = t(`${TEXTS[kind]}.button`, all);
  const ignore = t(NOT_TO_IGNORE[kind] ?? "mail.ignore", all);
  const signature = t("mail.signature", all);
  // A notification mail says why it came and how to stop it instead of "ignore this mail"; a
  // moderation decision is not something to ignore, and says nothing there; the deletion mail says
  // how to stop the deletion.
  const why = footer ? t("notification_mail.why", all) : TOLD_WITHOUT_ASKING.has(kind) ? "" : ignore;
  const out = footer
    ? { unsubscribe: t("notification_mail.unsubscribe", all), settings: t("notification_mail.settings", all) }
    : null;
  const outText =
    footer && out ? `\n\n${out.unsubscribe}: ${footer.unsubscribe}\n${out.settings}: ${footer.settings}` : "";
  const companyText = company.length > 0 ? `\n--\n${company.join("\n")}\n` : "";
  // A statement of reasons carries its elements, one a line, after the text (docs/decisions/0061).
  const details = typeof values.statement === "string" && values.statement ? values.statement : "";
  const detailsText = details ? `\n\n${details}` : "";
  const detailsHtml = details
    ? `<p style="color:#23191b">${details
        .split("\n")
        .map((l) => escapeHtml(l))
        .join("<br>")}</p>`
    : "";
  const text = `${greeting}\n\n${body}${detailsText}\n${link}\n\n${why}${outText}\n\n${signature}\n${companyText}`;
  const companyHtml =
    company.length > 0
      ? `<p style="color:#6d5d60;font-size:12px">${company.map((line) => escapeHtml(line)).join("<br>")}</p>`
      : "";
  const outHtml =
    footer && out
      ? `<p style="color:#6d5d60;font-size:13px"><a href="${escapeHtml(footer.unsubscribe)}" style="color:#6d5d60">${escapeHtml(out.unsubscribe)}</a> · <a href="${escapeHtml(footer.settings)}" style="color:#6d5d60">${escapeHtml(out.settings)}</a></p>`
      : "";
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#23191b">
<p>${escapeHtml(greeting)}</p><p>${escapeHtml(body)}</p>${detailsHtml}
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:12px 20px;border-radius:999px;background:#e8412c;color:#fff;text-decoration:none;font-weight:600">${escapeHtml(button)}</a></p>
<p style="color:#6d5d60;font-size:13px">${escapeHtml(link)}</p><p style="color:#6d5d60">${escapeHtml(why)}</p>
<p>${escapeHtml(signature).replace(/\n/g, "<br>")}</p>${outHtml}${companyHtml}</body></html>`;
  return { to: to.address, kind, subject, text, html };
}
