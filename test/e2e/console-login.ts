import type { BrowserContext, Page } from "playwright-core";
import { localD1 } from "./server";

/**
 * The console in a desktop browser, signed in through the development login as a new operator with
 * this role (made straight in the local D1); each call is another operator.
 */
export async function operatorPage(
  context: BrowserContext,
  consoleOrigin: string,
  statePath: string,
  role = "moderator",
): Promise<Page> {
  const email = `op-e2e-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@flirtwave.test`;
  localD1(
    statePath,
    `INSERT INTO operators (email, status, created_at) VALUES ('${email}', 'active', unixepoch()); INSERT INTO operator_roles (operator_id, role) SELECT id, '${role}' FROM operators WHERE email = '${email}'`,
  );
  const page = await context.newPage();
  await page.goto(`${consoleOrigin}/login`);
  await page.fill("input[name=email]", email);
  await Promise.all([page.waitForURL(`${consoleOrigin}/`), page.click("button[type=submit]")]);
  return page;
}
