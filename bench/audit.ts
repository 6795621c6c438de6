/**
 * npm run audit: Lighthouse (mobile: a simulated mid-range phone on a slow 4G network) and axe-core
 * on the front door of a demo site: the home page, the search, a profile, every lander and a member
 * landing page; then as a member just signed up: the search, a profile, a chat, the likes and the
 * credits; plus the client JavaScript each of them loads. Debian's Chromium, offline, against the
 * built Worker in workerd. Prints the scores; nothing asserts them.
 *
 *   npm run audit [-- --port 8866 --host nl.localhost --profiles 600 --no-build --only /landers/video]
 */
import { request } from "node:http";
import { createRequire } from "node:module";
import { parseArgs } from "node:util";
import lighthouse from "lighthouse";
import { chromium } from "playwright-core";
import { LANDERS } from "../src/shared/routes";
import { build, get, seed, serve } from "../test/e2e/server";
import { pageJavaScript } from "./sizes";

const { values } = parseArgs({
  options: {
    // The app is served here; Chromium's debugging port is the next one.
    port: { type: "string", default: "8866" },
    host: { type: "string", default: "nl.localhost" },
    profiles: { type: "string", default: "600" },
    "no-build": { type: "boolean", default: false },
    /** Audit only the pages whose path contains this. */
    only: { type: "string" },
  },
});
const PORT = Number(values.port);
const DEBUG_PORT = PORT + 1;
const STATE = ".tmp/audit-state";
const CATEGORIES = ["performance", "accessibility", "seo"] as const;
const SCREENS = {
  home: "src/app/screens/home/HomeScreen.tsx",
  members: "src/app/screens/members/MembersScreen.tsx",
  member: "src/app/screens/member/MemberScreen.tsx",
  lander: "src/app/screens/landers/LanderScreen.tsx",
  landing: "src/app/screens/member-landing/MemberLandingScreen.tsx",
  chat: "src/app/screens/chats/ChatScreen.tsx",
  likes: "src/app/screens/likes/LikesScreen.tsx",
  credits: "src/app/screens/credits/CreditsScreen.tsx",
};
type Screen = keyof typeof SCREENS;

/** Sign a member up through the API (Node cannot resolve *.localhost: the site comes from Host); answers the session cookie. */
function signUp(port: number, host: string): Promise<string> {
  const unique = `${Date.now() % 1_000_000}`;
  const body = JSON.stringify({
    email: `audit${unique}@example.com`,
    username: `audit${unique}`,
    password: "een goed wachtwoord",
    date_of_birth: "1990-04-14",
    gender: "female",
    terms: true,
  });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: "/api/signup.php",
        method: "POST",
        headers: {
          host: `${host}:${port}`,
          origin: `http://${host}:${port}`,
          "content-type": "application/json",
          "x-request-type": "client",
        },
      },
      (res) => {
        res.resume();
        const session = (res.headers["set-cookie"] ?? [])
          .map((c) => c.split(";")[0]!)
          .find((c) => c.startsWith("session="));
        if (res.statusCode === 201 && session) resolve(session);
        else reject(new Error(`signup answered ${res.statusCode}`));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

if (!values["no-build"]) build();
seed(STATE, Number(values.profiles));
const server = await serve(STATE, PORT);
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    `--remote-debugging-port=${DEBUG_PORT}`,
  ],
});
try {
  const origin = `http://${values.host}:${PORT}`;
  const search = JSON.parse((await get(PORT, values.host, "/api/search.php")).body) as { profiles: { id: number }[] };
  const profileId = search.profiles[0]!.id;
  const session = await signUp(PORT, values.host);
  // [path, screen, as a member]
  const pages: [string, Screen, boolean][] = [
    ["/", "home", false],
    ["/members", "members", false],
    [`/members/${profileId}`, "member", false],
    ["/landers/tinderswipe", "lander", false],
    ...LANDERS.map((l): [string, Screen, boolean] => [`/landers/${l}`, "lander", false]),
    [`/members/${profileId}/landing`, "landing", false],
    ["/members", "members", true],
    [`/members/${profileId}`, "member", true],
    [`/members/${profileId}/chat`, "chat", true],
    ["/likes", "likes", true],
    ["/credits", "credits", true],
  ];
  const axeSource = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
  // axe is injected as a script, which the pages' CSP would refuse.
  const phone = {
    viewport: { width: 360, height: 740 },
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 2,
    bypassCSP: true,
  };
  const context = await browser.newContext(phone);
  const memberContext = await browser.newContext(phone);
  const [name, value] = session.split("=") as [string, string];
  await memberContext.addCookies([{ name, value, url: origin }]);
  // Both tools see a first visit, site-entry warning included.

  console.info(`\nLighthouse (mobile, simulated throttling) and axe-core on ${origin}\n`);
  console.info(
    "page                                   perf  a11y  seo   LCP      TBT     CLS    axe serious/critical  JS gzip",
  );
  for (const [path, screen, asMember] of pages) {
    if (values.only && !path.includes(values.only)) continue;
    // The member's session goes along as a header (Lighthouse's way for pages behind a login).
    const extraHeaders = asMember ? { Cookie: session } : undefined;
    const result = await lighthouse(origin + path, {
      port: DEBUG_PORT,
      output: "json",
      logLevel: "error",
      onlyCategories: [...CATEGORIES],
      extraHeaders,
    });
    const lhr = result!.lhr;
    const score = (c: string) => String(Math.round((lhr.categories[c]?.score ?? 0) * 100)).padEnd(5);
    const audit = (id: string) => lhr.audits[id]?.displayValue ?? "-";
    const failing = CATEGORIES.filter((c) => c !== "performance").flatMap((c) =>
      lhr.categories[c]!.auditRefs.filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1).map(
        (ref) => `${c}:${ref.id}`,
      ),
    );

    const page = await (asMember ? memberContext : context).newPage();
    await page.goto(origin + path, { waitUntil: "networkidle" });
    await page.addScriptTag({ path: axeSource });
    const violations = await page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: { run: () => Promise<{ violations: { id: string; impact: string | null; nodes: unknown[] }[] }> };
        }
      ).axe;
      return (await axe.run()).violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${v.id} (${v.impact}, ${v.nodes.length})`);
    });
    await page.close();

    const js = pageJavaScript("dist/client", SCREENS[screen]);
    console.info(
      `${(asMember ? `${path} (member)` : path).padEnd(38)} ${score("performance")} ${score("accessibility")} ${score("seo")} ${audit("largest-contentful-paint").padEnd(8)} ${audit("total-blocking-time").padEnd(7)} ${audit("cumulative-layout-shift").padEnd(6)} ${String(violations.length).padEnd(21)} ${(js.gzip / 1024).toFixed(1)} KB`,
    );
    for (const line of [...failing.map((f) => `lighthouse ${f}`), ...violations.map((v) => `axe ${v}`)])
      console.info(`    ${line}`);
  }
  await context.close();
  await memberContext.close();
} finally {
  await browser.close();
  await server.stop();
}
