import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import en from "../../locales/en.json";
import { signupProblems, type SignupDraft } from "../../src/app/components/signup-checks";
import { putSites, site } from "../fixtures";
import { Browser, json } from "../http";
import { createI18n } from "../../src/shared/translator";

const ORIGIN = "http://fields.test";
const { t } = createI18n("en", en);

beforeAll(async () => {
  await putSites(site("fields.test"));
});

// A draft the form would send; the date of birth is refused on purpose, so the server names every
// faulty field and stores nobody, whatever the other fields are.
const draft: SignupDraft = {
  email: "anna@example.com",
  username: "anna",
  password: "a good password",
  day: "31",
  month: "2",
  year: "1990",
  gender: "female",
  lookingFor: "male",
  terms: true,
};

type Field = "email" | "username" | "password";
// The last element marks an input the body's length cap refuses before the field check: both sides
// refuse it, the server with its generic text.
const inputs: [Field, string, "cap"?][] = [
  ["username", "anna"],
  ["username", "Zoë.K"],
  ["username", "ann!"],
  ["username", "anna smith"],
  ["username", "Аnna"],
  ["username", "ab"],
  ["username", "12345"],
  ["username", "a".repeat(25)],
  ["username", "@anna"],
  ["username", " anna@example.com "],
  ["username", "ＡＮＮＡ"],
  ["username", ""],
  ["email", "anna@example"],
  ["email", "ANNA@EXAMPLE.COM "],
  ["email", "an na@example.com"],
  ["email", "anna@@example.com"],
  ["password", "short"],
  ["password", "exactly8"],
  ["password", "p".repeat(129), "cap"],
];

describe("the signup form and the server give the same verdict on each field (SPEC §5)", () => {
  for (const [field, value, cap] of inputs) {
    it(`${field} ${JSON.stringify(value)}`, async () => {
      const form = { ...draft, [field]: value };
      const problem = signupProblems(form)[field];
      const clientVerdict = problem ? t(problem.key, problem.values) : null;

      const body = {
        email: form.email,
        username: form.username,
        password: form.password,
        date_of_birth: "1990-02-31",
        gender: "female",
        terms: true,
      };
      const before = await env.DB.prepare("SELECT count(*) AS n FROM users").first<{ n: number }>();
      const res = await new Browser(ORIGIN).fetch("/api/signup.php", {
        method: "POST",
        json: body,
        headers: { cookie: "locale=en" },
      });
      expect(res.status).toBe(400);
      const { fields } = await json<{ fields: Record<string, string> }>(res);
      if (cap) {
        expect(clientVerdict).not.toBeNull();
        expect(fields[field]).toBe(`Invalid value for ${field}`);
      } else {
        expect(fields.date_of_birth).toBe("Invalid date of birth");
        expect(fields[field] ?? null).toBe(clientVerdict);
      }
      expect(await env.DB.prepare("SELECT count(*) AS n FROM users").first<{ n: number }>()).toEqual(before);
    });
  }
});
