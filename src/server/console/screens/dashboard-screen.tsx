/**
 * The dashboard (any operator; issue 24 point 6): a site's figures per UTC day, or every site's
 * together, and the DSA transparency figures of the same days, downloadable as CSV. Figures only:
 * no member is named here.
 */
import { Hono, type Context } from "hono";
import { listSites } from "../../edge/site";
import { dashboard, dayText, dsaCsv, dsaFigures, MAX_DAYS, periodOf } from "../../services/dashboard";
import { money } from "../action-form";
import type { ConsoleEnv, ConsoleScreen } from "../console-context";
import { renderConsole } from "../console-page";
import { ConsoleRefusal } from "../console-refusal";

const DAY = 86_400;
/** Days shown when none are asked for: the last two weeks, today included. */
const DEFAULT_DAYS = 14;

/** The site and days of the query string (the last two weeks by default); days that are not a period are a 400. */
function selection(c: Context<ConsoleEnv>, now: number) {
  const site = c.req.query("site")?.trim() || null;
  const to = c.req.query("to")?.trim() || dayText(now);
  const from =
    c.req.query("from")?.trim() || dayText(Date.parse(`${to}T00:00:00Z`) / 1000 - (DEFAULT_DAYS - 1) * DAY || now);
  const period = periodOf(from, to);
  if (!period)
    throw new ConsoleRefusal(
      400,
      "invalid_parameter",
      `Give the days as YYYY-MM-DD, from before to, at most ${MAX_DAYS} days.`,
    );
  return { site, from, to, period };
}

/** Seconds as operators read a waiting time: "3 h 20 min", "2 d 4 h". */
function duration(seconds: number | null): string {
  if (seconds === null) return "";
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 2 * DAY) return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`;
  return `${Math.floor(seconds / DAY)} d ${Math.round((seconds % DAY) / 3600)} h`;
}

const routes = new Hono<ConsoleEnv>()
  .get("/", async (c) => {
    const now = Math.floor(Date.now() / 1000);
    const { site, from, to, period } = selection(c, now);
    const [figures, dsa, sites] = await Promise.all([
      dashboard(c.var.db, site, period, now),
      dsaFigures(c.var.db, site, period),
      listSites(c.env.SETTINGS),
    ]);
    const csv = `/dashboard/dsa.csv?${new URLSearchParams({ ...(site ? { site } : {}), from, to }).toString()}`;
    return renderConsole(
      c,
      "Dashboard",
      <>
        <form method="get" action="/dashboard">
          <label className="inline">
            Site{" "}
            <select name="site" defaultValue={site ?? ""}>
              <option value="">every site</option>
              {sites.map((s) => (
                <option key={s.domain} value={s.domain}>
                  {s.domain}
                </option>
              ))}
            </select>
          </label>
          <label className="inline">
            From <input name="from" type="date" defaultValue={from} /> to{" "}
            <input name="to" type="date" defaultValue={to} />
          </label>
          <button type="submit">Show</button>
        </form>
        <p>
          Oldest photo waiting for approval:{" "}
          <strong>
            {figures.oldestWaitingPhotoSeconds === null ? "none waiting" : duration(figures.oldestWaitingPhotoSeconds)}
          </strong>
        </p>
        <table>
          <thead>
            <tr>
              <th>Day (UTC)</th>
              <th>Signups</th>
              <th>Activations</th>
              <th>First purchases</th>
              <th>Revenue</th>
              <th>Charged chat sends</th>
              <th>Likes</th>
              <th>Reports opened</th>
              <th>Reports closed</th>
              <th>Median to decision</th>
              <th>Verifications asked / approved / rejected</th>
              <th>Median to verification decision</th>
            </tr>
          </thead>
          <tbody>
            {figures.days.toReversed().map((day) => (
              <tr key={day.day}>
                <td style={{ whiteSpace: "nowrap" }}>{day.day}</td>
                <td>{day.signups}</td>
                <td>{day.activations}</td>
                <td>{day.firstPurchases}</td>
                <td>
                  {Object.entries(day.revenue)
                    .map(([currency, cents]) => money(cents, currency))
                    .join(", ")}
                </td>
                <td>{day.chargedSends}</td>
                <td>{day.likes}</td>
                <td>{day.reportsOpened}</td>
                <td>{day.reportsClosed}</td>
                <td>{duration(day.medianDecisionSeconds)}</td>
                <td>
                  {day.verifications.asked} / {day.verifications.approved} / {day.verifications.rejected}
                </td>
                <td>{duration(day.verifications.medianDecisionSeconds)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p>
          <small>
            Revenue is what credited orders charged that day, VAT included. Free chat messages are counted only inside
            the conversations, so chat sends here are the charged ones.
          </small>
        </p>
        <h2>
          DSA transparency figures, {from} to {to}
        </h2>
        <table>
          <thead>
            <tr>
              <th>Section</th>
              <th>Item</th>
              <th>Value</th>
            </tr>
          </thead>
          <tbody>
            {dsa.map((figure) => (
              <tr key={`${figure.section}/${figure.item}`}>
                <td>{figure.section.replaceAll("_", " ")}</td>
                <td>{figure.item.replaceAll("_", " ")}</td>
                <td>{figure.value ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p>
          <a href={csv} download>
            Download the DSA figures as CSV
          </a>
        </p>
      </>,
    );
  })
  .get("/dsa.csv", async (c) => {
    const { site, from, to, period } = selection(c, Math.floor(Date.now() / 1000));
    const body = dsaCsv(site, period, await dsaFigures(c.var.db, site, period));
    return c.body(body, 200, {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="dsa-${site ?? "all-sites"}-${from}-${to}.csv"`,
      "cache-control": "private, no-store",
    });
  });

export const dashboardScreen: ConsoleScreen = { path: "/dashboard", label: "Dashboard", role: null, routes };
