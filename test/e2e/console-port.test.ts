/**
 * The console on another port than wrangler.toml's: the browser tests serve the stack on E2E_PORT
 * (not 8787) with OPERATOR_HOST left at ops.localhost:8787, as an operator who runs
 * `wrangler dev --port 8790` would. The console's login and home answer there, not a 404.
 */
import { describe, expect, inject, it } from "vitest";
import { sharedBrowser } from "./browser";
import { get, localD1 } from "./server";

const baseUrl = inject("baseUrl");
const statePath = inject("statePath");
const browser = sharedBrowser();
const port = Number(new URL(baseUrl).port);
const consoleOrigin = `http://ops.localhost:${port}`;

describe("the console on the port the stack is served on", () => {
  it("is served on a port other than wrangler.toml's 8787", () => {
    expect(port).not.toBe(8787);
  });

  it("answers its login page and signs an operator in, on that port", async () => {
    const login = await get(port, "ops.localhost", "/login");
    expect(login.status).toBe(200);
    expect(login.body).toContain('name="email"');

    const email = `port-e2e-${Date.now()}@flirtwave.test`;
    localD1(
      statePath,
      `INSERT INTO operators (email, status, created_at) VALUES ('${email}', 'active', unixepoch()); INSERT INTO operator_roles (operator_id, role) SELECT id, 'admin' FROM operators WHERE email = '${email}'`,
    );
    const context = await browser().newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const response = await page.goto(`${consoleOrigin}/login`);
    expect(response?.status()).toBe(200);
    await page.fill("input[name=email]", email);
    await Promise.all([page.waitForURL(`${consoleOrigin}/`), page.click("button[type=submit]")]);
    expect(await page.locator('a[href="/audit"]').count()).toBeGreaterThan(0);
    await context.close();
  });

  it("is still the console only on its own host: a member site on that port knows none of its paths", async () => {
    expect((await get(port, "nl.localhost", "/audit")).status).toBe(404);
  });
});
