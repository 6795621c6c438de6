/** Steps the browser tests take on the Dutch demo site: signing up by its form or its API, calling its API. */
import { expect } from "vitest";
import type { Page } from "playwright-core";
import nl from "../../locales/nl.json" with { type: "json" };
import type { User } from "../../src/shared/api";
import { enterSite } from "./browser";

const stamp = () => `${Date.now() % 1_000_000}${Math.floor(Math.random() * 1000)}`;

/** A call to the site's API from its own page (Node cannot resolve *.localhost; the browser can), with the page's cookies. */
export async function api<T>(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  return page.evaluate(
    async ([m, p, b]) => {
      const res = await fetch(p, {
        method: m,
        headers: { "X-Request-Type": "client", "Content-Type": "application/json" },
        body: b === undefined ? null : JSON.stringify(b),
      });
      return { status: res.status, body: (await res.json()) as T };
    },
    [method, path, body] as const,
  );
}

/** A member signed up through the site's API in this page's browser context; `tag` keeps each test's addresses apart. */
export async function signUpByApi(
  page: Page,
  baseUrl: string,
  tag: string,
  name: string,
  gender: "male" | "female",
): Promise<User> {
  await page.goto(`${baseUrl}/`);
  await enterSite(page, nl.entry_warning.enter);
  const unique = stamp();
  const res = await api<{ user: User }>(page, "POST", "/api/signup.php", {
    email: `e2e-${tag}-${name}${unique}@example.com`,
    username: `${name}${unique}`,
    password: "een goed wachtwoord",
    date_of_birth: "1991-06-02",
    gender,
    terms: true,
  });
  expect(res.status).toBe(201);
  return res.body.user;
}

/** A new (free) member signed up with the signup form; the page ends on /complete-signup. */
export async function signUpByForm(page: Page, baseUrl: string, tag: string, gender: "male" | "female" = "female") {
  const unique = stamp();
  await page.goto(`${baseUrl}/signup`);
  await enterSite(page, nl.entry_warning.enter);
  await page.getByLabel(nl.signup.email).fill(`e2e-${tag}${unique}@example.com`);
  await page.getByLabel(nl.signup.username, { exact: true }).fill(`e2e${tag}${unique}`.slice(0, 24));
  await page.getByLabel(nl.signup.password, { exact: true }).fill("een goed wachtwoord");
  await page.getByLabel(nl.signup.day).selectOption("14");
  await page.getByLabel(nl.signup.month).selectOption({ index: 3 });
  await page.getByLabel(nl.signup.year).selectOption("1990");
  await page.getByLabel(gender === "female" ? nl.signup.gender_female : nl.signup.gender_male).check();
  // Looking for the other gender.
  await page
    .getByLabel(gender === "female" ? nl.signup.looking_for_male : nl.signup.looking_for_female, { exact: true })
    .check();
  await page.locator('input[name="terms"]').check();
  await page.getByRole("button", { name: nl.signup.submit }).click();
  await page.waitForURL(/\/complete-signup$/);
}
