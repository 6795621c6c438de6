/** The demo's sites are launched as an operator's would be: each keeps the launch rules (src/shared/site-rules.ts). */
import { describe, expect, it } from "vitest";
import { COMPANIES, SITES } from "../../scripts/demo/sites";
import { siteRuleProblems } from "../../src/shared/site-rules";

describe("the demo sites", () => {
  it.each(SITES.map((site) => [site.domain, site] as const))("%s keeps every launch rule", (_domain, site) => {
    expect(siteRuleProblems({ site, company: COMPANIES[site.company_id] }, "development")).toEqual([]);
  });
});
