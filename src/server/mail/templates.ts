import type { i18n } from "i18next";
import type { Mail } from "./mailer";

export type MailKind = "activation" | "reset" | "mail_change" | "deletion" | "report";

/** Where each kind keeps its subject, text and button in locales/ (a feature's mail lives in its own namespace). */
const TEXTS: Record<MailKind, string> = { activation: "mail.activation", reset: "mail.reset", mail_change: "mail.mail_change", deletion: "mail.deletion", report: "reports.mail" };

const escape = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** A mail in the member's language: greeting, what it is about, the link as a button, and the signature. */
export function composeMail(
  t: i18n["t"],
  kind: MailKind,
  to: { address: string; name: string },
  site: string,
  link: string,
  values: Record<string, string | number> = {},
): Mail {
  const all = { site, name: to.name, ...values };
  const subject = t(`${TEXTS[kind]}.subject`, all);
  const greeting = t("mail.greeting", all);
  const body = t(`${TEXTS[kind]}.text`, all);
  const button = t(`${TEXTS[kind]}.button`, all);
  const ignore = t("mail.ignore", all);
  const signature = t("mail.signature", all);
  const text = `${greeting}\n\n${body}\n${link}\n\n${ignore}\n\n${signature}\n`;
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#23191b">
<p>${escape(greeting)}</p><p>${escape(body)}</p>
<p><a href="${escape(link)}" style="display:inline-block;padding:12px 20px;border-radius:999px;background:#e8412c;color:#fff;text-decoration:none;font-weight:600">${escape(button)}</a></p>
<p style="color:#6d5d60;font-size:13px">${escape(link)}</p><p style="color:#6d5d60">${escape(ignore)}</p>
<p>${escape(signature).replace(/\n/g, "<br>")}</p></body></html>`;
  return { to: to.address, kind, subject, text, html };
}
