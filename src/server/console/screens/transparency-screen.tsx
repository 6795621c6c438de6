/**
 * The DSA transparency report (any operator; docs/decisions/0063): a site's figures, or every
 * site's, for a calendar year, a half-year or any period up to a year, in the sections and items of
 * Implementing Regulation (EU) 2024/2835's template, downloadable as CSV; and how the statements of
 * reasons stand with the Commission's Transparency Database; moderators record out-of-court disputes
 * here (out-of-court-disputes.tsx). Figures only: no member is named here.
 */
import { Hono, type Context } from "hono";
import { listSites, loadSite } from "../../edge/site";
import { openDisputes } from "../../db/transparency";
import { submissionSummary } from "../../db/transparency-submissions";
import { dayText } from "../../services/dashboard";
import {
  MAX_REPORT_DAYS,
  namedPeriod,
  reportCsv,
  reportPeriodOf,
  transparencyReport,
  type ReportIdentity,
  type ReportRow,
} from "../../services/transparency-report";
import type { ConsoleEnv, ConsoleScreen } from "../console-context";
import { FiguresForm, renderConsole, when } from "../console-page";
import { ConsoleRefusal, hasRole } from "../console-refusal";
import { DisputesPart, disputeRoutes } from "../out-of-court-disputes";

/**
 * The site and period of the query string: `period` names a year ("2026") or half-year
 * ("2026-H1"), else `from` and `to` give the days; the last calendar year by default.
 */
function selection(c: Context<ConsoleEnv>, now: number) {
  const site = c.req.query("site")?.trim() || null;
  const lastYear = String(Number(dayText(now).slice(0, 4)) - 1);
  const name = c.req.query("period")?.trim() || (c.req.query("from") ? "" : lastYear);
  const days = name
    ? namedPeriod(name)
    : { from: c.req.query("from")?.trim() ?? "", to: c.req.query("to")?.trim() ?? "" };
  const period = days ? reportPeriodOf(days.from, days.to) : null;
  if (!days || !period)
    throw new ConsoleRefusal(
      400,
      "invalid_parameter",
      `Name a year (2026) or half-year (2026-H1), or give the days as YYYY-MM-DD, from before to, at most ${MAX_REPORT_DAYS} days.`,
    );
  return { site, name, from: days.from, to: days.to, period };
}

/** The provider and service the report is of: the site's company and name, or every site's. */
async function identityOf(c: Context<ConsoleEnv>, site: string | null): Promise<ReportIdentity> {
  const sites = (await listSites(c.env.SETTINGS)).filter((s) => site === null || s.domain === site);
  const companies = new Set<string>();
  for (const s of sites) {
    const company = (await loadSite(c.env.SETTINGS, s.domain))?.company;
    if (company) companies.add(company.name);
  }
  return { provider: [...companies].join("; "), service: sites.map((s) => `${s.name} (${s.domain})`).join("; ") };
}

/** The report's rows by section, in the template's order. */
function sectionsOf(rows: ReportRow[]): [string, ReportRow[]][] {
  const sections = new Map<string, ReportRow[]>();
  for (const row of rows) sections.set(row.section, [...(sections.get(row.section) ?? []), row]);
  return [...sections];
}

function periodChoices(now: number): string[] {
  const year = Number(dayText(now).slice(0, 4));
  return [year, year - 1, year - 2].flatMap((y) => [String(y), `${y}-H1`, `${y}-H2`]);
}

const routes = new Hono<ConsoleEnv>()
  .get("/", async (c) => {
    const now = Math.floor(Date.now() / 1000);
    const { site, name, from, to, period } = selection(c, now);
    const [rows, sites, queue, disputes] = await Promise.all([
      identityOf(c, site).then((identity) => transparencyReport(c.var.db, site, period, identity)),
      listSites(c.env.SETTINGS),
      submissionSummary(c.var.db),
      openDisputes(c.var.db, site),
    ]);
    const query = new URLSearchParams({ ...(site ? { site } : {}), ...(name ? { period: name } : { from, to }) });
    const count = (state: string) => queue.states.find((s) => s.state === state)?.n ?? 0;
    return renderConsole(
      c,
      "Transparency report",
      <>
        <FiguresForm action="/transparency" sites={sites} site={site} from={from} to={to}>
          <label className="inline">
            Period{" "}
            <select name="period" defaultValue={name}>
              <option value="">the days below</option>
              {periodChoices(now).map((choice) => (
                <option key={choice} value={choice}>
                  {choice}
                </option>
              ))}
            </select>
          </label>
        </FiguresForm>
        <h2>{`DSA transparency report, ${from} to ${to}`}</h2>
        <p>
          <a href={`/transparency/report.csv?${query.toString()}`} download>
            Download the report as CSV
          </a>{" "}
          (sections and items of the template of Implementing Regulation (EU) 2024/2835)
        </p>
        {sectionsOf(rows).map(([section, lines]) => (
          <section key={section}>
            <h3>{section}</h3>
            <table>
              <thead>
                <tr>
                  <th>Item</th>
                  <th>Breakdown</th>
                  <th>Value</th>
                  <th>Note</th>
                </tr>
              </thead>
              <tbody>
                {lines.map((row, i) => (
                  <tr key={`${row.item}/${row.breakdown}`}>
                    <td>{row.item === lines[i - 1]?.item ? "" : row.item}</td>
                    <td>{row.breakdown}</td>
                    <td>{row.value ?? ""}</td>
                    <td>
                      <small>{row.note === lines[i - 1]?.note ? "" : row.note}</small>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        ))}
        <DisputesPart open={disputes} canRecord={hasRole(c.var.operator, "moderator")} today={dayText(now)} />
        <h2>Statements of reasons in the DSA Transparency Database</h2>
        <p>
          Accepted: <strong>{count("accepted")}</strong>. Waiting to be accepted: <strong>{count("waiting")}</strong>.
          Not for the database (no site in the EU or EEA): <strong>{count("outside_union")}</strong>.
        </p>
        {queue.refused.length > 0 && (
          <table>
            <thead>
              <tr>
                <th>Decision</th>
                <th>Attempts</th>
                <th>Last answer</th>
                <th>Next attempt</th>
              </tr>
            </thead>
            <tbody>
              {queue.refused.map((row) => (
                <tr key={row.decisionId}>
                  <td>{row.decisionId}</td>
                  <td>{row.attempts}</td>
                  <td>
                    {row.lastStatus ? `${row.lastStatus}: ` : ""}
                    {row.lastError}
                  </td>
                  <td>{when(row.nextAttemptAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </>,
    );
  })
  .route("/disputes", disputeRoutes)
  .get("/report.csv", async (c) => {
    const { site, from, to, period } = selection(c, Math.floor(Date.now() / 1000));
    const body = reportCsv(await transparencyReport(c.var.db, site, period, await identityOf(c, site)));
    return c.body(body, 200, {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="dsa-transparency-${site ?? "all-sites"}-${from}-${to}.csv"`,
      "cache-control": "private, no-store",
    });
  });

export const transparencyScreen: ConsoleScreen = {
  path: "/transparency",
  label: "Transparency report",
  role: null,
  routes,
};
