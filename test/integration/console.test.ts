import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { auditEntryQuery } from "../../src/server/db/audit-log";
import { eq } from "drizzle-orm";
import { databaseOf } from "../../src/server/db/database";
import { auditLog, operators } from "../../src/server/db/schema";
import { putOperatorStatements } from "../../src/server/services/operators";
import { app } from "../../src/server/app";
import { chatMember } from "../chat";
import { accessToken, asOperator, consoleFetch, operator, productionEnv } from "../console";
import { putSites, site } from "../fixtures";
import { fetchWorker } from "../http";

const MEMBER_SITE = "console-members.test";
const db = databaseOf(env.DB);
const developmentEnv = { ...env, ENVIRONMENT: "development" };

type AuditRow = {
  operator_id: number | null;
  actor: string;
  action: string;
  target_kind: string;
  target_id: string;
  before: string | null;
  after: string | null;
  reason: string | null;
};
const auditOf = async (kind: string, id: string) =>
  (
    await env.DB.prepare(
      "SELECT operator_id, actor, action, target_kind, target_id, before, after, reason FROM audit_log WHERE target_kind = ? AND target_id = ? ORDER BY id",
    )
      .bind(kind, id)
      .all<AuditRow>()
  ).results;
const operatorRow = (email: string) =>
  env.DB.prepare(
    "SELECT id, status, (SELECT group_concat(role) FROM (SELECT role FROM operator_roles WHERE operator_id = operators.id ORDER BY role)) AS roles FROM operators WHERE email = ?",
  )
    .bind(email)
    .first<{ id: number; status: string; roles: string | null }>();

beforeAll(async () => {
  await putSites(site(MEMBER_SITE));
});

describe("who may open the console (Cloudflare Access)", () => {
  let admin: string;
  beforeAll(async () => {
    admin = await operator("admin");
  });

  it("opens for an operator whose Access token verifies: signature, audience, issuer, expiry", async () => {
    const response = await asOperator(admin, "/");
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toContain(`Signed in as ${admin}`);
    expect(page).toContain('href="/audit"');
  });

  it("takes a token signed with the previous key, which Access still publishes after a rotation", async () => {
    expect((await consoleFetch("/", { token: await accessToken({ email: admin, key: "previous" }) })).status).toBe(200);
  });

  it("refuses no token, a bad signature, a wrong audience, a wrong issuer, an expired token, one not yet valid", async () => {
    const now = Math.floor(Date.now() / 1000);
    const good = await accessToken({ email: admin });
    const [header, , signature] = good.split(".");
    const forgedClaims = Buffer.from(
      JSON.stringify({
        email: admin,
        aud: [productionEnv.ACCESS_AUD],
        iss: productionEnv.ACCESS_TEAM_DOMAIN,
        exp: now + 3600,
      }),
    ).toString("base64url");
    const refused = {
      "no token": null,
      "a key Access never published": await accessToken({ email: admin, key: "foreign" }),
      "claims changed after signing": `${header}.${forgedClaims}.${signature}`,
      "another application's audience": await accessToken({ email: admin, aud: ["another-application-aud"] }),
      "another team": await accessToken({ email: admin, iss: "https://elsewhere.cloudflareaccess.com" }),
      expired: await accessToken({ email: admin, exp: now - 60 }),
      "not yet valid": await accessToken({ email: admin, nbf: now + 3600 }),
      "not a token": "not.a.token",
    };
    for (const [why, token] of Object.entries(refused)) {
      const response = await consoleFetch("/audit", { token });
      expect(response.status, why).toBe(403);
      expect(await response.text(), why).not.toContain("Audit log</h1>");
    }
  });

  it("refuses a valid token of someone who is not an operator, and of an operator who was disabled", async () => {
    expect((await asOperator("stranger@flirtwave.test", "/")).status).toBe(403);
    const gone = await operator("admin");
    await env.DB.prepare("UPDATE operators SET status = 'disabled' WHERE email = ?").bind(gone).run();
    expect((await asOperator(gone, "/")).status).toBe(403);
  });

  it("refuses everything when Access is not configured", async () => {
    const token = await accessToken({ email: admin });
    expect((await consoleFetch("/", { token, workerEnv: { ...productionEnv, ACCESS_AUD: "" } })).status).toBe(403);
    expect((await consoleFetch("/", { token, workerEnv: { ...productionEnv, ACCESS_TEAM_DOMAIN: "" } })).status).toBe(
      403,
    );
  });

  it("a member's cookie never opens the console, in production or in development", async () => {
    const member = await chatMember(`http://${MEMBER_SITE}`);
    const cookie = [...member.browser.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    expect(cookie).toContain("session=");
    expect((await consoleFetch("/", { headers: { cookie } })).status).toBe(403);
    const development = await consoleFetch("/audit", { headers: { cookie }, workerEnv: developmentEnv });
    expect(development.status).toBe(302);
    expect(development.headers.get("location")).toBe("/login?return=%2Faudit");
  });

  it("is the console only on its own host: a member site knows none of its paths", async () => {
    const response = await fetchWorker(`http://${MEMBER_SITE}/audit`, {
      headers: { "cf-access-jwt-assertion": await accessToken({ email: admin }) },
    });
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain("Flirtwave console");
  });
});

describe("roles", () => {
  it("a screen opens only for its role (admin holds every role); the navigation shows only those", async () => {
    const moderator = await operator("moderator");
    const home = await (await asOperator(moderator, "/")).text();
    expect(home).not.toContain('href="/audit"');
    expect((await asOperator(moderator, "/audit")).status).toBe(403);
    expect((await asOperator(moderator, "/operators")).status).toBe(403);
    const before = await operatorRow("newcomer-by-moderator@flirtwave.test");
    expect(
      (
        await asOperator(moderator, "/operators", {
          form: { email: "newcomer-by-moderator@flirtwave.test", roles: "admin", reason: "trying" },
        })
      ).status,
    ).toBe(403);
    expect(await operatorRow("newcomer-by-moderator@flirtwave.test")).toEqual(before);
  });
});

describe("writes need the member side's CSRF proof", () => {
  it("a form posted without X-Request-Type, or from another origin, changes nothing", async () => {
    const admin = await operator("admin");
    const email = "csrf-target@flirtwave.test";
    const forged: Record<string, string>[] = [
      { "x-request-type": "" },
      { origin: "https://evil.example" },
      { origin: "" },
    ];
    for (const headers of forged) {
      const response = await asOperator(admin, "/operators", {
        form: { email, roles: "admin", reason: "planted" },
        headers,
      });
      expect(response.status).toBe(403);
      expect(((await response.json()) as { error: string }).error).toBe("csrf");
    }
    expect(await operatorRow(email)).toBeNull();
    expect(await auditOf("operator", email)).toEqual([]);
  });
});

describe("the console's host and port", () => {
  /** A request to the Worker at this address, with OPERATOR_HOST naming port 8787 as wrangler.toml does. */
  async function at(url: string, environment: string) {
    const ctx = createExecutionContext();
    const response = await app.fetch(
      new Request(url),
      { ...productionEnv, ENVIRONMENT: environment, OPERATOR_HOST: "ops.flirtwave.test:8787" },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    return response;
  }

  it("answers in development on whatever port the stack is served on", async () => {
    for (const port of [8787, 8790, 8804]) {
      const login = await at(`http://ops.flirtwave.test:${port}/login`, "development");
      expect(login.status, `port ${port}`).toBe(200);
      expect(await login.text()).toContain('name="email"');
    }
  });

  it("in production only on the port OPERATOR_HOST names", async () => {
    // The console's own refusal (no Access token) on its port; on another port it is no host of the Worker.
    expect((await at("https://ops.flirtwave.test:8787/", "production")).status).toBe(403);
    const other = await at("https://ops.flirtwave.test:8790/", "production");
    expect(other.status).toBe(404);
    expect(await other.text()).not.toContain("Flirtwave console");
  });
});

describe("the development login", () => {
  it("exists only while ENVIRONMENT is development", async () => {
    expect((await consoleFetch("/login")).status).toBe(404);
    const admin = await operator("admin");
    expect((await consoleFetch("/login", { form: { email: admin } })).status).toBe(404);
  });

  it("signs an operator in with a host-only cookie of its own that a member site never reads", async () => {
    const admin = await operator("admin");
    expect((await consoleFetch("/login", { workerEnv: developmentEnv })).status).toBe(200);
    const refused = await consoleFetch("/login", {
      form: { email: "nobody@flirtwave.test" },
      workerEnv: developmentEnv,
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.getSetCookie()).toEqual([]);

    const login = await consoleFetch("/login", { form: { email: admin, return: "/audit" }, workerEnv: developmentEnv });
    expect(login.status).toBe(200);
    expect(await login.json()).toEqual({ ok: true, redirect: "/audit" });
    const [setCookie] = login.headers.getSetCookie();
    expect(setCookie).toMatch(/^operator_session=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    expect(setCookie).not.toMatch(/Domain=/i);
    const cookie = setCookie!.split(";")[0]!;

    expect((await consoleFetch("/audit", { headers: { cookie }, workerEnv: developmentEnv })).status).toBe(200);
    // Production accepts Access only: the development cookie opens nothing there.
    expect((await consoleFetch("/audit", { headers: { cookie } })).status).toBe(403);
    // A member site reads no operator from it: the visitor stays a visitor.
    const user = await fetchWorker(`http://${MEMBER_SITE}/api/user.php`, { headers: { cookie } });
    expect(user.status).toBe(403);
  });
});

describe("the audit log", { timeout: 30_000 }, () => {
  it("each operator action writes its audit row in the same batch: who, what, on what, before, after, reason, when", async () => {
    const admin = await operator("admin");
    const adminId = (await operatorRow(admin))!.id;
    const email = "new-moderator@flirtwave.test";
    expect(
      (
        await asOperator(admin, "/operators", {
          form: { email, roles: ["moderator", "support"], reason: "joins the moderation team" },
        })
      ).status,
    ).toBe(200);
    expect(await operatorRow(email)).toMatchObject({ status: "active", roles: "moderator,support" });

    expect(
      (
        await asOperator(admin, "/operators", {
          form: { email, roles: "moderator", reason: "support moved to another team" },
        })
      ).status,
    ).toBe(200);
    const id = (await operatorRow(email))!.id;
    expect((await asOperator(admin, `/operators/${id}/disable`, { form: { reason: "left the company" } })).status).toBe(
      200,
    );
    expect(await operatorRow(email)).toMatchObject({ status: "disabled", roles: "moderator" });

    const rows = await auditOf("operator", email);
    expect(rows.map((row) => [row.action, row.operator_id, row.actor, row.reason])).toEqual([
      ["operator.add", adminId, admin, "joins the moderation team"],
      ["operator.update", adminId, admin, "support moved to another team"],
      ["operator.disable", adminId, admin, "left the company"],
    ]);
    expect(rows.map((row) => [JSON.parse(row.before ?? "null"), JSON.parse(row.after ?? "null")])).toEqual([
      [null, { email, status: "active", roles: ["moderator", "support"] }],
      [
        { email, status: "active", roles: ["moderator", "support"] },
        { email, status: "active", roles: ["moderator"] },
      ],
      [{ status: "active", roles: ["moderator"] }, { status: "disabled" }],
    ]);
  });

  it("a refused action writes nothing: no reason, a role that does not exist, disabling oneself", async () => {
    const admin = await operator("admin");
    const email = "half-made@flirtwave.test";
    for (const form of [
      { email, roles: "admin", reason: "" },
      { email, roles: "owner", reason: "a role of its own" },
      { email: "not-an-address", roles: "admin", reason: "no address" },
    ]) {
      const response = await asOperator(admin, "/operators", { form });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { message: string }).message).toMatch(/reason|role|address/i);
    }
    const own = (await operatorRow(admin))!.id;
    expect((await asOperator(admin, `/operators/${own}/disable`, { form: { reason: "tired" } })).status).toBe(400);
    expect(await operatorRow(email)).toBeNull();
    expect(await auditOf("operator", email)).toEqual([]);
    expect(await auditOf("operator", admin)).toEqual([]);
  });

  it("two admins disabling the same operator at once: it happens once and is recorded once", async () => {
    const admins = await Promise.all(Array.from({ length: 4 }, () => operator("admin")));
    for (let round = 0; round < 3; round++) {
      const target = await operator("support");
      const id = (await operatorRow(target))!.id;
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          asOperator(admins[i % admins.length]!, `/operators/${id}/disable`, {
            form: { reason: `round ${round} attempt ${i}` },
          }),
        ),
      );
      expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(1);
      expect(answers.every((a) => a.status === 200 || a.status === 404)).toBe(true);
      expect((await auditOf("operator", target)).filter((row) => row.action === "operator.disable")).toHaveLength(1);
    }
  });

  it("is append-only: a row can be neither changed nor removed", async () => {
    await db
      .insert(auditLog)
      .values({ actor: "test", action: "test.entry", targetKind: "test", targetId: "append-only", createdAt: 1 });
    await expect(
      env.DB.prepare("UPDATE audit_log SET reason = 'rewritten' WHERE target_id = 'append-only'").run(),
    ).rejects.toThrow(/audit_log_append_only/);
    await expect(env.DB.prepare("DELETE FROM audit_log WHERE target_id = 'append-only'").run()).rejects.toThrow(
      /audit_log_append_only/,
    );
    expect(await auditOf("test", "append-only")).toHaveLength(1);
  });

  it("the console shows it, filtered by operator and by target", async () => {
    const [first, second] = [await operator("admin"), await operator("admin")];
    await asOperator(first, "/operators", {
      form: { email: "shown-one@flirtwave.test", roles: "finance", reason: "reason of the first" },
    });
    await asOperator(second, "/operators", {
      form: { email: "shown-two@flirtwave.test", roles: "support", reason: "reason of the second" },
    });
    const firstId = (await operatorRow(first))!.id;

    const byOperator = await (await asOperator(second, `/audit?operator=${firstId}`)).text();
    expect(byOperator).toContain("reason of the first");
    expect(byOperator).not.toContain("reason of the second");
    const byTarget = await (
      await asOperator(first, `/audit?kind=operator&target=${encodeURIComponent("shown-two@flirtwave.test")}`)
    ).text();
    expect(byTarget).toContain("reason of the second");
    expect(byTarget).not.toContain("reason of the first");
  });

  it("an action guarded by its first statement records nothing when that statement changed nothing", async () => {
    const actor = { operatorId: null, name: "command:test" };
    const now = Math.floor(Date.now() / 1000);
    await db.batch([
      db.update(operators).set({ status: "disabled" }).where(eq(operators.id, -1)),
      auditEntryQuery(db, actor, { action: "nothing.happened", target: { kind: "test", id: "guarded" } }, now, true),
    ]);
    await db.batch([
      db.update(operators).set({ status: "active" }).where(eq(operators.status, "active")),
      auditEntryQuery(db, actor, { action: "something.happened", target: { kind: "test", id: "guarded" } }, now, true),
    ]);
    expect((await auditOf("test", "guarded")).map((row) => row.action)).toEqual(["something.happened"]);
  });
});

describe("the operator command's statements", () => {
  it("make the first admin and record who ran the command", async () => {
    const email = "First.Admin@Flirtwave.test";
    await db.batch(
      putOperatorStatements(
        db,
        { operatorId: null, name: "command:operator" },
        { email, roles: ["admin"], reason: "first admin" },
        null,
        Math.floor(Date.now() / 1000),
      ),
    );
    expect(await operatorRow("first.admin@flirtwave.test")).toMatchObject({ status: "active", roles: "admin" });
    expect(await auditOf("operator", "first.admin@flirtwave.test")).toMatchObject([
      { operator_id: null, actor: "command:operator", action: "operator.add", reason: "first admin" },
    ]);
    expect((await asOperator("first.admin@flirtwave.test", "/operators")).status).toBe(200);
  });
});

describe("a form that cannot be read", () => {
  it("is a 400 with a message on every console write, /login included, and changes nothing", async () => {
    const admin = await operator("admin");
    const token = await accessToken({ email: admin });
    const { consoleApp } = await import("../../src/server/console/console-app");
    // Every POST route the console defines, its parameters filled in.
    const paths = [
      ...new Set(consoleApp.routes.filter((r) => r.method === "POST").map((r) => r.path.replace(/\/\*$/, ""))),
    ].map((path) => path.replace(/:(\w+)/g, (_, name: string) => (name === "domain" ? MEMBER_SITE : "1")));
    expect(paths).toContain("/login");
    expect(paths.length).toBeGreaterThanOrEqual(19);
    const counts = () =>
      env.DB.prepare(
        "SELECT (SELECT count(*) FROM audit_log) AS audit, (SELECT count(*) FROM operators) AS operators, (SELECT count(*) FROM moderation_decisions) AS decisions, (SELECT total(credits) FROM users) AS credits",
      ).first();
    const before = await counts();
    const truncated = '------b\r\nContent-Disposition: form-data; name="reason"\r\n\r\nplanted reason';
    for (const path of paths) {
      const login = path === "/login";
      const response = await consoleFetch(path, {
        method: "POST",
        token: login ? null : token,
        headers: { "content-type": "multipart/form-data; boundary=----b" },
        body: truncated,
        workerEnv: login ? developmentEnv : productionEnv,
      });
      expect(response.status, path).toBe(400);
      expect(await response.json(), path).toMatchObject({ error: "invalid_body" });
    }
    // A wrong boundary is as unreadable.
    const wrong = await consoleFetch("/operators", {
      method: "POST",
      token,
      headers: { "content-type": "multipart/form-data; boundary=other" },
      body: '--b\r\nContent-Disposition: form-data; name="email"\r\n\r\nx@flirtwave.test\r\n--b--\r\n',
    });
    expect(wrong.status).toBe(400);
    expect(await counts()).toEqual(before);
  });
});
