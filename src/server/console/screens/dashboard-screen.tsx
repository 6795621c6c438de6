/**
 * The dashboard (any operator; issue 24 point 6): a site's figures per UTC day, or every site's
 * together; the DSA transparency report is its own screen (transparency-screen.tsx). Figures only:
 * no member is named here.
 */
import { Hono, type Context } from "hono";
import { listSites } from "../../edge/site";
import { dashboard, dayText, MAX_DAYS, periodOf } from "../../services/dashboard";
import { money } from "../action-form";
import type { ConsoleEnv, ConsoleScreen } from "../console-context";
import { FiguresForm, renderConsole } from "../console-page";
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

const routes = new Hono<ConsoleEnv>().get("/", async (c) => {
  const now = Math.floor(Date.now() / 1000);
  const { site, from, to, period } = selection(c, now);
  const [figures, sites] = await Promise.all([dashboard(c.var.db, site, period, now), listSites(c.env.SETTINGS)]);
  return renderConsole(
    c,
    "Dashboard",
    <>
      <FiguresForm action="/dashboard" sites={sites} site={site} from={from} to={to} />
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
          Revenue is what credited orders charged that day, VAT included. Free chat messages are counted only inside the
          conversations, so chat sends here are the charged ones.
        </small>
      </p>
      <p>
        The DSA transparency report, for a calendar year or half-year, is on{" "}
        <a href={`/transparency${site ? `?site=${encodeURIComponent(site)}` : ""}`}>Transparency report</a>.
      </p>
    </>,
  );
});

export const dashboardScreen: ConsoleScreen = { path: "/dashboard", label: "Dashboard", role: null, routes };
