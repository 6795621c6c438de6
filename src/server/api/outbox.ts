import type { Context } from "hono";
import { latestMails, listSms } from "../db/outbox";
import { latestPushes } from "../db/push-subscriptions";
import { escapeHtml as escape } from "../mail/templates";
import type { AppEnv } from "../request-context";

const clickable = (text: string) => escape(text).replace(/(https?:\/\/[^\s<]+)/g, '<a href="$1">$1</a>');

/**
 * Development only: the local outbox, newest first, with the links clickable, so a developer can
 * activate an account or reset a password without a mail server. A developer's tool, in English.
 */
export async function showOutbox(c: Context<AppEnv>): Promise<Response> {
  const to = c.req.query("to");
  // Mails link to https://<site domain>; locally the site answers on this page's origin (http, a port).
  const here = new URL(c.req.url);
  const linkify = (text: string) => clickable(text).replaceAll(`https://${here.hostname}/`, `${here.origin}/`);
  const mails = await latestMails(c.get("db"), to, 50);
  const items = mails
    .map(
      (m) => `<article class="mail" data-kind="${escape(m.kind)}" data-to="${escape(m.toAddress)}">
<h2>${escape(m.subject)}</h2><p><b>To:</b> ${escape(m.toAddress)} · <b>Kind:</b> ${escape(m.kind)} · ${new Date(m.createdAt * 1000).toISOString()}</p>
${
  m.headers
    ? `<pre class="mail__headers">${linkify(
        Object.entries(JSON.parse(m.headers) as Record<string, string>)
          .map(([name, value]) => `${name}: ${value.replace(/[<>]/g, "")}`)
          .join("\n"),
      )}</pre>`
    : ""
}<pre>${linkify(m.text)}</pre></article>`,
    )
    .join("\n");
  const sms = (await listSms(c.get("db")))
    .map(
      (m) =>
        `<article class="sms" data-to="${escape(m.toNumber)}"><p><b>SMS to:</b> ${escape(m.toNumber)} · ${new Date(m.createdAt * 1000).toISOString()}</p><pre>${escape(m.text)}</pre></article>`,
    )
    .join("\n");
  const pushes = (await latestPushes(c.get("db")))
    .map(
      (p) =>
        `<article class="push" data-user="${p.userId}"><p><b>Push to member</b> ${p.userId} · ${escape(new URL(p.endpoint).host)} · ${escape(p.urgency)}${p.topic ? ` · topic ${escape(p.topic)}` : ""} · ${new Date(p.createdAt * 1000).toISOString()}</p><pre>${escape(JSON.stringify(JSON.parse(p.payload), null, 2))}</pre></article>`,
    )
    .join("\n");
  return c.html(
    `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Outbox</title>
<style>body{font:15px system-ui,sans-serif;max-width:50rem;margin:1rem auto;padding:0 1rem}article{border:1px solid #ddd;border-radius:8px;padding:0 1rem;margin:1rem 0}pre{white-space:pre-wrap}</style>
<h1>Outbox (${mails.length})</h1>${items || "<p>No mail yet.</p>"}<h1>SMS</h1>${sms || "<p>No SMS yet.</p>"}<h1>Push</h1>${pushes || "<p>No push yet.</p>"}</html>`,
  );
}
