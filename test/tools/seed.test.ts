/**
 * The demo seed on a local stack of its own (a temporary --persist-to), as an operator runs it:
 * `--country` adds members to one country's site only, and `--reset` puts back the sites an
 * operator put with `npm run site -- put`. Real wrangler, D1, KV and R2 (slow: some two minutes).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const TSX = join(ROOT, "node_modules", ".bin", "tsx");
const WRANGLER = join(ROOT, "node_modules", ".bin", "wrangler");
const STATE = mkdtempSync(join(tmpdir(), "seed-test-"));
const ENV = { ...process.env, CI: "true", CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" };
const PATH = `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH}`;

function run(command: string, args: string[]): string {
  const done = spawnSync(command, args, { cwd: ROOT, encoding: "utf8", env: { ...ENV, PATH } });
  if (done.status !== 0) throw new Error(`${command} ${args.join(" ")} failed:\n${done.stdout}\n${done.stderr}`);
  return done.stdout;
}

const seed = (...args: string[]) => run(TSX, [join(ROOT, "scripts", "seed.ts"), "--persist-to", STATE, ...args]);

function query<T>(sql: string): T[] {
  const out = run(WRANGLER, ["d1", "execute", "DB", "--local", "--persist-to", STATE, "--json", "--command", sql]);
  return (JSON.parse(out) as { results: T[] }[])[0]!.results;
}

function kvGet(key: string): string {
  return run(WRANGLER, ["kv", "key", "get", "--binding", "SETTINGS", key, "--local", "--persist-to", STATE]);
}

const membersBySite = () =>
  Object.fromEntries(
    query<{ site: string; n: number }>("SELECT site_domain AS site, count(*) AS n FROM users GROUP BY site_domain").map(
      (r) => [r.site, r.n],
    ),
  );

beforeAll(() => {
  seed("--profiles", "20");
  // An operator launches a site of their own, as docs/operations.md says.
  run(TSX, [
    join(ROOT, "scripts", "site.ts"),
    "put",
    "scripts/sites/example.nl.json",
    "--local",
    "--persist-to",
    STATE,
  ]);
}, 240_000);

afterAll(() => rmSync(STATE, { recursive: true, force: true }));

describe("npm run seed", () => {
  it("gives the four launched sites demo members of their own country", () => {
    const sites = membersBySite();
    for (const domain of ["fi.localhost", "fr.localhost", "es.localhost", "it.localhost"])
      expect(sites[domain], domain).toBeGreaterThan(0);
    const countries = query<{ site: string; country: string }>(
      "SELECT DISTINCT u.site_domain AS site, p.country FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.site_domain IN ('fi.localhost', 'fr.localhost', 'es.localhost', 'it.localhost') ORDER BY 1",
    );
    expect(countries).toEqual([
      { site: "es.localhost", country: "ES" },
      { site: "fi.localhost", country: "FI" },
      { site: "fr.localhost", country: "FR" },
      { site: "it.localhost", country: "IT" },
    ]);
  });

  it("--country FI adds members to the Finnish site only, after the last ids, and leaves the sites alone", () => {
    const before = membersBySite();
    const [{ last }] = query<{ last: number }>("SELECT max(id) AS last FROM users") as [{ last: number }];
    const operatorSite = kvGet("site:example.nl");
    seed("--country", "FI", "--profiles", "7");
    const after = membersBySite();
    expect(after["fi.localhost"]).toBe(before["fi.localhost"]! + 7);
    expect({ ...after, "fi.localhost": 0 }).toEqual({ ...before, "fi.localhost": 0 });
    const added = query<{ id: number; country: string; region: string; photo: number | null }>(
      `SELECT p.id, p.country, r.code AS region, p.main_photo_id AS photo FROM profiles p JOIN regions r ON r.id = p.region_id WHERE p.id > ${last} ORDER BY p.id`,
    );
    expect(added.map((p) => p.id)).toEqual([1, 2, 3, 4, 5, 6, 7].map((k) => last + k));
    for (const p of added) {
      expect(p.country).toBe("FI");
      expect(p.region).toMatch(/^FI-\d\d$/);
      expect(p.photo).not.toBeNull();
    }
    expect(kvGet("site:example.nl")).toBe(operatorSite);
  }, 180_000);

  it("--country refuses a country without demo names and a site nobody put", () => {
    expect(() => seed("--country", "PT")).toThrow(/--country must be one of/);
    expect(() => seed("--country", "FI", "--site", "fi.example")).toThrow(/no settings for fi\.example/);
  }, 180_000);

  it("npm run places -- load --country LU gives the local stack the towns of Luxembourg again", () => {
    const towns = () =>
      query<{ n: number; placed: number }>(
        "SELECT count(*) AS n, count(region_id) AS placed FROM places WHERE country = 'LU'",
      )[0]!;
    const loaded = towns();
    query("DELETE FROM places WHERE country = 'LU'");
    expect(towns().n).toBe(0);
    // The command as docs/operations.md writes it; without --remote it loads the local stack.
    run(TSX, [join(ROOT, "scripts", "places.ts"), "load", "--country", "LU", "--persist-to", STATE]);
    expect(towns()).toEqual(loaded);
    expect(loaded.n).toBeGreaterThan(50);
    expect(loaded.placed).toBe(loaded.n);
  }, 120_000);

  it("--reset loads the demo again and puts back the site the operator put", () => {
    const operatorSite = kvGet("site:example.nl");
    seed("--reset", "--profiles", "20");
    expect(kvGet("site:example.nl")).toBe(operatorSite);
    expect(JSON.parse(kvGet("site:fi.localhost")).domain_language).toBe("fi");
    const [{ towns }] = query<{ towns: number }>("SELECT count(*) AS towns FROM places WHERE country = 'FI'") as [
      { towns: number },
    ];
    expect(towns).toBeGreaterThan(300);
  }, 180_000);
});

describe("the launched demo sites", () => {
  it.each(["fi", "fr", "es", "it"])("scripts/sites/%s.localhost.json passes npm run site -- validate", (site) => {
    const out = run(TSX, [join(ROOT, "scripts", "site.ts"), "validate", `scripts/sites/${site}.localhost.json`]);
    expect(out).toContain(`valid settings for ${site}.localhost`);
  });
});
