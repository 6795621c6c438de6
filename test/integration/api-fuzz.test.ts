/**
 * No input ever gets a 5xx: every /api route the app registers (read from the app itself, so a new
 * endpoint is covered the day it is added) is called with wrong methods, bodies that are not JSON,
 * huge strings, odd ids and field names every object has, by a visitor and by a member.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { app } from "../../src/server/app";
import { birthDateForAge, loadProfiles, putSites, site } from "../fixtures";
import { Browser } from "../http";

const ORIGIN = "http://fuzz.test";

/** Every /api path the app answers, with the methods it registers for it. */
function apiRoutes(): Map<string, Set<string>> {
  const routes = new Map<string, Set<string>>();
  for (const { path, method } of app.routes) {
    if (!path.startsWith("/api/") || path.includes("*")) continue;
    if (!routes.has(path)) routes.set(path, new Set());
    if (method !== "ALL") routes.get(path)!.add(method);
  }
  return routes;
}

const METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"];
const PROTOTYPE_NAMES = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "prototype"];
const ODD_IDS = [
  "0",
  "-1",
  "1e309",
  "99999999999999999999",
  "abc",
  "ünïcødé😀",
  "1.5",
  "",
  " ",
  "0x10",
  "NaN",
  "null",
  "%00",
];
/** Query and body field names the API reads somewhere. */
const FIELDS = [
  "id",
  "profile",
  "profile_id",
  "photo_id",
  "conversation",
  "before",
  "lat",
  "lon",
  "page",
  "country",
  "country_region",
  "gender",
  "min_age",
  "max_age",
  "language",
  "invisible",
  "email",
  "password",
  "password_repeat",
  "old_password",
  "token",
  "reason",
  "username",
  "date_of_birth",
  "terms",
  "message",
  "position",
  "main",
  "city",
  "region",
  "interests",
  "about_me",
  "sexuality",
  "kind",
  "body",
  "client_id",
  "gift",
  "push",
  "subscription",
  "welcome",
  "locale",
];
const HUGE = "x".repeat(100_000);

/** Raw bodies that are not what any endpoint expects. */
const RAW_BODIES = [
  "{",
  "not json",
  "null",
  "[]",
  '"text"',
  "1e309",
  '{"a":',
  JSON.stringify({ deep: JSON.parse("[".repeat(500) + "]".repeat(500)) }),
  ...PROTOTYPE_NAMES.map((name) => `{"${name}": 1}`),
  ...PROTOTYPE_NAMES.map((name) => `{"${name}": {"${name}": "x"}}`),
];

/** The odd values each field gets on its own; all of ODD_IDS go to every field at once. */
const ODD_EACH = ["-1", "99999999999999999999", "ünïcødé😀"];

/** JSON bodies: every field at once with each odd value (as a string and as raw JSON), then each field alone. */
function jsonBodies(): string[] {
  const all = (value: string) => `{${FIELDS.map((field) => `"${field}": ${value}`).join(", ")}}`;
  const bodies = ODD_IDS.map((id) => all(JSON.stringify(id)));
  for (const raw of ["-1", "1e309", "99999999999999999999", "1.5", "true", "null", "[]", "{}"]) bodies.push(all(raw));
  for (const field of FIELDS)
    for (const id of ODD_EACH)
      bodies.push(JSON.stringify({ [field]: id }), `{"${field}": ${id === "ünïcødé😀" ? "{}" : id}}`);
  bodies.push(JSON.stringify(Object.fromEntries(FIELDS.map((field) => [field, HUGE]))));
  return bodies;
}

/** Query strings: every field at once with each odd value, each field alone, a huge one and prototype names. */
function queries(): string[] {
  const list = ["", ...ODD_IDS.map((id) => `?${new URLSearchParams(FIELDS.map((field) => [field, id]))}`)];
  for (const field of FIELDS) for (const id of ODD_EACH) list.push(`?${new URLSearchParams({ [field]: id })}`);
  list.push(`?${FIELDS.map((field) => `${field}=${"9".repeat(5000)}`).join("&")}`);
  for (const name of PROTOTYPE_NAMES) list.push(`?${name}=1`);
  list.push("?id=%E0%A4%A", "?lat=89.5&lon=4.9", "?lat=-90&lon=-180", "?profile=1&conversation=1");
  return list;
}

type Finding = { who: string; method: string; path: string; body?: string; status: number };

/** Requests of one route and method in flight at once: odd input must not give a 5xx when it comes together either. */
const AT_ONCE = 8;

async function inTurns<T>(items: readonly T[], send: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += AT_ONCE) await Promise.all(items.slice(i, i + AT_ONCE).map(send));
}

async function fuzz(
  who: string,
  browser: () => Promise<Browser>,
  routes: Map<string, Set<string>>,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const record = (method: string, path: string, status: number, body?: string) => {
    if (status >= 500)
      findings.push({ who, method, path, status, ...(body === undefined ? {} : { body: body.slice(0, 120) }) });
  };
  for (const [path, registered] of routes) {
    const client = await browser();
    // Logging out ends the member's session; it is called last so the rest runs logged in.
    const methods = METHODS.filter((m) => !(path === "/api/logout.php" && m === "GET"));
    for (const method of methods) {
      if (method === "GET" || method === "OPTIONS") {
        const list = registered.has(method) ? queries() : ["", "?id=abc"];
        await inTurns(list, async (query) =>
          record(method, path + query, (await client.fetch(path + query, { method })).status),
        );
        continue;
      }
      // Bodies only where the method is the route's own, to keep the run short; a wrong method once each.
      const bodies = registered.has(method) ? [...RAW_BODIES, ...jsonBodies()] : [RAW_BODIES[0]!];
      await inTurns(bodies, async (body) => {
        const res = await client.fetch(path, { method, body, headers: { "content-type": "application/json" } });
        record(method, path, res.status, body);
      });
      const empty = await client.fetch(path, { method });
      record(method, path, empty.status, "(no body)");
      const form = await client.fetch(path, {
        method,
        body: "a=1&constructor=2",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      record(method, path, form.status, "(form)");
    }
    if (path === "/api/logout.php") record("GET", path, (await client.fetch(path)).status);
  }
  return findings;
}

let members = 0;

async function member(): Promise<Browser> {
  members++;
  const browser = new Browser(ORIGIN);
  const res = await browser.post("/api/signup.php", {
    email: `fuzz${members}@example.com`,
    username: `fuzz${members}`,
    password: "a good password",
    date_of_birth: birthDateForAge(35),
    gender: "female",
    terms: true,
  });
  expect(res.status).toBe(201);
  return browser;
}

beforeAll(async () => {
  await putSites(site("fuzz.test"));
  await loadProfiles([]);
});

describe("every /api route", () => {
  const routes = apiRoutes();

  it("is found in the app, the calls of SPEC §7 among them", () => {
    for (const path of [
      "/api/user.php",
      "/api/logout.php",
      "/api/geocode.php",
      "/api/chats.php",
      "/api/chat.php",
      "/api/settings.php",
      "/api/profile.php",
    ]) {
      expect(routes.has(path), path).toBe(true);
    }
  });

  it("answers a visitor's odd requests without a server error", async () => {
    expect(await fuzz("visitor", async () => new Browser(ORIGIN), routes)).toEqual([]);
  }, 600_000);

  it("answers a member's odd requests without a server error", async () => {
    expect(await fuzz("member", member, routes)).toEqual([]);
  }, 600_000);
});
