/**
 * The console's pages: server-rendered React, no hydration, in English (staff only). One layout with
 * the navigation of the screens the operator's roles open; forms post through the small script below
 * so each write carries the same CSRF proof as the member side (auth/csrf.ts).
 */
import type { Context } from "hono";
import type { ReactNode } from "react";
import { renderToReadableStream } from "react-dom/server";
import type { ConsoleEnv, NavItem } from "./console-context";

const STYLE = `
body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1d1d1f;background:#f6f6f8}
header{display:flex;gap:1.5rem;align-items:center;padding:.6rem 1.2rem;background:#23233a;color:#fff;flex-wrap:wrap}
header a{color:#fff;text-decoration:none}header nav{display:flex;gap:1rem;flex-wrap:wrap}
header nav a[aria-current]{text-decoration:underline}header .who{margin-left:auto;font-size:.85rem;opacity:.85}
main{padding:1rem 1.2rem;max-width:1200px}
table{border-collapse:collapse;width:100%;background:#fff}th,td{border:1px solid #ddd;padding:.35rem .5rem;text-align:left;vertical-align:top}
th{background:#ececf2}td pre{margin:0;white-space:pre-wrap;word-break:break-word;font-size:.8rem}
form.inline{display:inline}label{display:block;margin:.4rem 0}label.inline{display:inline;margin-right:1rem}input,select,textarea,button{font:inherit}
button{padding:.3rem .8rem;cursor:pointer}.error{color:#b00020}.notice{background:#fff;border:1px solid #ddd;padding:.6rem}
fieldset{border:1px solid #ccc;background:#fff;margin:.8rem 0}
label.confirm{display:inline;margin:0 .6rem 0 0;font-size:.9rem}.waiting{background:#fff8e1;border:1px solid #e0b84c;padding:.6rem;margin:.6rem 0}
`;

/**
 * Sends every form of the page with fetch: the X-Request-Type header a cross-site form cannot send,
 * and the browser's Origin. The answer is JSON: where to go next, or the refusal to show.
 */
const FORM_SCRIPT = `
document.addEventListener("submit", async (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || form.method.toLowerCase() !== "post") return;
  event.preventDefault();
  const out = form.querySelector("[data-form-error]");
  if (out) out.textContent = "";
  const button = form.querySelector("button");
  if (button) button.disabled = true;
  try {
    const response = await fetch(form.action, { method: "POST", headers: { "x-request-type": "console", "content-type": "application/x-www-form-urlencoded", accept: "application/json" }, body: new URLSearchParams(new FormData(form)) });
    const body = await response.json().catch(() => ({}));
    if (response.ok) { location.assign(body.redirect || location.href); return; }
    if (out) out.textContent = body.message || "The request failed (" + response.status + ").";
  } catch {
    if (out) out.textContent = "The console could not be reached.";
  }
  if (button) button.disabled = false;
});
`;

type Shell = {
  title: string;
  nav: NavItem[];
  current: string;
  operator: string | null;
  nonce: string | undefined;
  children: ReactNode;
};

function ConsoleShell({ title, nav, current, operator, nonce, children }: Shell) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <link rel="icon" href="data:," />
        <title>{`${title} · Flirtwave console`}</title>
        <style>{STYLE}</style>
      </head>
      <body>
        <header>
          <a href="/">
            <strong>Flirtwave console</strong>
          </a>
          <nav aria-label="Console">
            {nav.map((item) => (
              <a
                key={item.path}
                href={item.path}
                aria-current={current === item.path || current.startsWith(`${item.path}/`) ? "page" : undefined}
              >
                {item.label}
              </a>
            ))}
          </nav>
          {operator && (
            <span className="who">
              {operator}
              <form className="inline" method="post" action="/logout">
                {" "}
                <button type="submit">Log out</button>
              </form>
            </span>
          )}
        </header>
        <main>
          <h1>{title}</h1>
          {children}
        </main>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: FORM_SCRIPT }} />
      </body>
    </html>
  );
}

/** The reason every change an operator makes is written to the audit log with. */
export function ReasonField() {
  return (
    <label>
      Reason <input name="reason" required minLength={3} size={60} />
    </label>
  );
}

/** One checkbox per value, side by side after `label`, all sent under `name` (none ticked: the field is left out). */
export function Checks({ label, name, values }: { label?: string; name: string; values: readonly string[] }) {
  return (
    <p>
      {label && `${label} `}
      {values.map((value) => (
        <label key={value} className="inline">
          <input type="checkbox" name={name} value={value} /> {value}
        </label>
      ))}
    </p>
  );
}

/** The figures screens' query form: a site or every site, what the screen adds, the days, and Show. */
export function FiguresForm(props: {
  action: string;
  sites: readonly { domain: string }[];
  site: string | null;
  from: string;
  to: string;
  children?: ReactNode;
}) {
  return (
    <form method="get" action={props.action}>
      <label className="inline">
        Site{" "}
        <select name="site" defaultValue={props.site ?? ""}>
          <option value="">every site</option>
          {props.sites.map((s) => (
            <option key={s.domain} value={s.domain}>
              {s.domain}
            </option>
          ))}
        </select>
      </label>
      {props.children}
      <label className="inline">
        From <input name="from" type="date" defaultValue={props.from} /> to{" "}
        <input name="to" type="date" defaultValue={props.to} />
      </label>
      <button type="submit">Show</button>
    </form>
  );
}

/** A form's place for the refusal the server answers (filled in by the form script). */
export function FormError() {
  return <p className="error" role="alert" data-form-error="" />;
}

/** Answer a console page: the layout around `body`, rendered whole (operators' pages are small). */
export async function renderConsole(
  c: Context<ConsoleEnv>,
  title: string,
  body: ReactNode,
  status: 200 | 400 | 403 | 404 = 200,
): Promise<Response> {
  const operator = c.var.operator as ConsoleEnv["Variables"]["operator"] | undefined;
  const nonce = c.get("secureHeadersNonce");
  const stream = await renderToReadableStream(
    <ConsoleShell
      title={title}
      nav={c.var.nav ?? []}
      current={c.req.path}
      operator={operator?.email ?? null}
      nonce={nonce}
    >
      {body}
    </ConsoleShell>,
    {
      onError(error: unknown) {
        console.error(
          JSON.stringify({
            event: "console_render_error",
            requestId: c.get("requestId"),
            message: error instanceof Error ? error.message : String(error),
          }),
        );
      },
    },
  );
  await stream.allReady;
  return c.body(stream, status, { "content-type": "text/html; charset=utf-8", "cache-control": "private, no-store" });
}

/** A date and time as operators read it, in UTC. */
export function when(seconds: number | null | undefined): string {
  return seconds ? new Date(seconds * 1000).toISOString().replace("T", " ").slice(0, 16) + " UTC" : "";
}

/** How long something has waited, as operators compare queue items: minutes, hours, then days. */
export function waited(seconds: number): string {
  const minutes = Math.max(0, Math.round(seconds / 60));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.round(hours / 24)} d`;
}

/** Items per page of a queue (photos, reports, appeals, verifications). */
export const QUEUE_PAGE = 50;

/** The page of a queue the query asks for (`?page=`, from 1): what to skip and take. */
export function queuePage(c: Context<ConsoleEnv>, size = QUEUE_PAGE) {
  const asked = Number(c.req.query("page"));
  const page = Number.isInteger(asked) && asked >= 1 ? Math.min(asked, 1_000_000) : 1;
  return { page, size, offset: (page - 1) * size };
}

/**
 * A queue's true count and its pages: "120 waiting, oldest first; 51 to 100 shown, page 2 of 3",
 * with the links to the pages before and after. Every item of the queue is reached through them.
 */
export function QueuePager({
  path,
  page,
  size,
  total,
  shown,
}: {
  path: string;
  page: number;
  size: number;
  total: number;
  shown: number;
}) {
  const pages = Math.max(1, Math.ceil(total / size));
  const first = (page - 1) * size + 1;
  const link = (to: number) => `${path}?page=${to}`;
  return (
    <nav aria-label="Queue pages" className="pager" data-queue-total={total}>
      <p>
        <strong>{`${total} waiting`}</strong>
        {`, oldest first${shown > 0 ? `; ${first} to ${first + shown - 1} shown` : ""}, page ${page} of ${pages}.`}{" "}
        {page > 1 && <a href={link(Math.min(page - 1, pages))}>Previous page</a>}
        {page > 1 && page < pages && " · "}
        {page < pages && <a href={link(page + 1)}>Next page</a>}
      </p>
    </nav>
  );
}

/** One item of a queue's page: its link, when it came, and the columns of its own. */
export type QueueItem = { id: number; link: ReactNode; since: number; cells: ReactNode[] };

/** A queue's page as a table: each item with when it came and how long it has waited, then its own columns. */
export function QueueTable({ head, items, now }: { head: string[]; items: QueueItem[]; now: number }) {
  return (
    <table>
      <thead>
        <tr>
          {["#", "Filed", "Waiting", ...head].map((h) => (
            <th key={h}>{h}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={item.id}>
            <td>{item.link}</td>
            <td>{when(item.since)}</td>
            <td>{waited(now - item.since)}</td>
            {item.cells.map((cell, i) => (
              <td key={i}>{cell}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
