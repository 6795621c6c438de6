/**
 * Sites (admin; issue 24 point 5): each country site's settings and company as KV holds them, and a
 * change in three steps: the operator edits the JSON, the console checks it by the rules of
 * `npm run site -- validate` (edge/site.ts checkSiteFile) and keeps it as a draft, the
 * review shows the difference field by field, and only saving puts it into KV, with its audit row.
 */
import { Hono, type Context } from "hono";
import * as v from "valibot";
import { auditEntryQuery } from "../../db/audit-log";
import { clearSiteCache, listSites } from "../../edge/site";
import {
  checkSiteFile,
  putSiteFile,
  siteEnvironmentOf,
  settingsChanges,
  storedSiteFile,
  type SiteFile,
} from "../../edge/site";
import { companyKey, siteKey } from "../../../shared/settings";
import { actorOf } from "../audited-action";
import type { ConsoleEnv, ConsoleScreen } from "../console-context";
import { actionDone, readForm, Reason } from "../console-forms";
import { FormError, ReasonField, renderConsole } from "../console-page";
import { ConsoleRefusal } from "../console-refusal";

/** A draft waits for its review this long (KV's shortest expiry is a minute). */
const DRAFT_SECONDS = 3600;
const draftKey = (operatorId: number, domain: string) => `console-draft:${operatorId}:${domain}`;

const Edit = v.object({ settings: v.pipe(v.string(), v.maxLength(200_000, "The settings are too long.")) });
const Save = v.object({ base: v.string(), reason: Reason });

/** A fingerprint of the stored settings, so a save refuses when someone changed them since the review. */
async function fingerprint(value: unknown): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(value)));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function storedOf(c: Context<ConsoleEnv>) {
  const domain = c.req.param("domain") ?? "";
  const stored = await storedSiteFile(c.env.SETTINGS, domain);
  if (!stored) throw new ConsoleRefusal(404, "not_found", `There is no site ${domain}.`);
  return { domain, stored };
}

/** What KV will hold after saving: a draft without its company keeps the stored one (as `npm run site -- put` does). */
const afterSaving = (stored: { company?: unknown }, draft: SiteFile) =>
  draft.company === undefined && stored.company !== undefined ? { ...draft, company: stored.company } : draft;

const show = (value: unknown) => (value === undefined ? "(none)" : JSON.stringify(value));

const routes = new Hono<ConsoleEnv>()
  .get("/", async (c) => {
    const sites = await listSites(c.env.SETTINGS);
    return renderConsole(
      c,
      "Sites",
      <table>
        <thead>
          <tr>
            <th>Domain</th>
            <th>Name</th>
            <th>Countries</th>
            <th>Language</th>
            <th>Company</th>
          </tr>
        </thead>
        <tbody>
          {sites.map((site) => (
            <tr key={site.domain}>
              <td>
                <a href={`/sites/${site.domain}`}>{site.domain}</a>
              </td>
              <td>{site.name}</td>
              <td>{site.countries.join(", ")}</td>
              <td>{site.domain_language}</td>
              <td>{site.company_id}</td>
            </tr>
          ))}
        </tbody>
      </table>,
    );
  })
  .get("/:domain", async (c) => {
    const { domain, stored } = await storedOf(c);
    return renderConsole(
      c,
      `Site ${domain}`,
      <form method="post" action={`/sites/${domain}/draft`}>
        <p>
          The site's settings and its company as KV holds them. Change them here; the next step shows the difference
          before anything is saved.
        </p>
        <textarea
          name="settings"
          rows={30}
          style={{ width: "100%", fontFamily: "monospace", fontSize: ".8rem" }}
          defaultValue={JSON.stringify(stored, null, 2)}
          aria-label="Settings (JSON)"
        />
        <button type="submit">Check and show the difference</button>
        <FormError />
      </form>,
    );
  })
  .post("/:domain/draft", async (c) => {
    const { domain } = await storedOf(c);
    const { settings } = await readForm(c, Edit);
    let raw: unknown;
    try {
      raw = JSON.parse(settings);
    } catch {
      throw new ConsoleRefusal(400, "invalid_json", "The settings are not valid JSON; nothing was saved.");
    }
    const checked = checkSiteFile(raw, siteEnvironmentOf(c.env));
    if ("problems" in checked)
      throw new ConsoleRefusal(400, "invalid_settings", `Not valid, nothing was saved: ${checked.problems.join("; ")}`);
    if (checked.file.site.domain !== domain)
      throw new ConsoleRefusal(
        400,
        "invalid_settings",
        `site.domain must stay ${domain}; a new site is added with npm run site.`,
      );
    await c.env.SETTINGS.put(draftKey(c.var.operator.id, domain), JSON.stringify(checked.file), {
      expirationTtl: DRAFT_SECONDS,
    });
    return actionDone(c, `/sites/${domain}/review`);
  })
  .get("/:domain/review", async (c) => {
    const { domain, stored } = await storedOf(c);
    const draft = await c.env.SETTINGS.get<SiteFile>(draftKey(c.var.operator.id, domain), "json");
    if (!draft)
      throw new ConsoleRefusal(404, "not_found", "There is no draft of this site's settings (drafts last an hour).");
    const changes = settingsChanges(stored, afterSaving(stored, draft));
    return renderConsole(
      c,
      `Site ${domain}: the difference`,
      <>
        {changes.length === 0 ? (
          <p className="notice">The draft is the same as the stored settings.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th>Setting</th>
                <th>Now</th>
                <th>After saving</th>
              </tr>
            </thead>
            <tbody>
              {changes.map((change) => (
                <tr key={change.path}>
                  <td>{change.path}</td>
                  <td>
                    <pre>{show(change.before)}</pre>
                  </td>
                  <td>
                    <pre>{show(change.after)}</pre>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {changes.length > 0 && (
          <form method="post" action={`/sites/${domain}/save`}>
            <input type="hidden" name="base" value={await fingerprint(stored)} />
            <ReasonField />
            <button type="submit">Save to KV</button>
            <FormError />
          </form>
        )}
        <p>
          <a href={`/sites/${domain}`}>Back to the settings</a>
        </p>
      </>,
    );
  })
  .post("/:domain/save", async (c) => {
    const { base, reason } = await readForm(c, Save);
    const { domain, stored } = await storedOf(c);
    const key = draftKey(c.var.operator.id, domain);
    const draft = await c.env.SETTINGS.get<SiteFile>(key, "json");
    if (!draft)
      throw new ConsoleRefusal(404, "not_found", "There is no draft of this site's settings (drafts last an hour).");
    if (base !== (await fingerprint(stored)))
      throw new ConsoleRefusal(
        409,
        "changed_meanwhile",
        "The settings changed since you reviewed them; nothing was saved. Review them again.",
      );
    // Checked again: the draft is only ever what passed, but what is saved must pass now.
    const checked = checkSiteFile(draft, siteEnvironmentOf(c.env));
    if ("problems" in checked)
      throw new ConsoleRefusal(400, "invalid_settings", `Not valid, nothing was saved: ${checked.problems.join("; ")}`);
    const changes = settingsChanges(stored, afterSaving(stored, checked.file));
    const now = Math.floor(Date.now() / 1000);
    const entry = {
      action: "site.settings",
      target: { kind: "site", id: domain },
      before: Object.fromEntries(changes.map((change) => [change.path, change.before ?? null])),
      after: Object.fromEntries(changes.map((change) => [change.path, change.after ?? null])),
      reason,
    };
    // KV is not D1: the settings are put first and the record written after; should the record fail, the old settings go back.
    await putSiteFile(c.env.SETTINGS, checked.file);
    try {
      await auditEntryQuery(c.var.db, actorOf(c.var.operator), entry, now);
    } catch (error) {
      await c.env.SETTINGS.put(siteKey(domain), JSON.stringify(stored.site));
      if (checked.file.company && stored.company !== undefined)
        await c.env.SETTINGS.put(companyKey(checked.file.site.company_id), JSON.stringify(stored.company));
      clearSiteCache();
      throw error;
    }
    await c.env.SETTINGS.delete(key);
    return actionDone(c, `/sites/${domain}`);
  });

export const sitesScreen: ConsoleScreen = { path: "/sites", label: "Sites", role: "admin", routes };
