import { describe, expect, it } from "vitest";
import { ageOn } from "../../shared/ages";
import { dateOfBirth, signupProblems, type SignupDraft } from "./signup-checks";
import { showActivationReminder } from "./Alerts";
import { formErrors } from "./Form";
import { ApiRequestError } from "../page/api";
import { nextStep, previousStep } from "../screens/complete-signup/CompleteSignupScreen";

const today = new Date(Date.UTC(2026, 5, 15));
const good: SignupDraft = {
  email: "anna@example.com",
  username: "anna",
  password: "long-enough",
  day: "15",
  month: "6",
  year: "2008",
  gender: "female",
  lookingFor: "male",
  terms: true,
};
const keys = (draft: Partial<SignupDraft>) =>
  Object.fromEntries(Object.entries(signupProblems({ ...good, ...draft }, today)).map(([field, p]) => [field, p.key]));

describe("signup checks (SPEC §5)", () => {
  it("accepts a complete draft of someone turning 18 today", () => {
    expect(signupProblems(good, today)).toEqual({});
  });

  it("asks whom the member is looking for", () => {
    expect(keys({ lookingFor: "" })).toEqual({ looking_for: "validation.looking_for_required" });
    expect(keys({ lookingFor: "both" })).toEqual({});
  });

  it("refuses a username equal to the e-mail address or starting with @", () => {
    expect(keys({ username: "Anna@Example.com " })).toEqual({ username: "validation.username_is_email" });
    expect(keys({ username: "@anna" })).toEqual({ username: "validation.username_at" });
  });

  it("asks for the minimum age (18) and refuses dates that do not exist", () => {
    expect(keys({ day: "16" })).toEqual({ date_of_birth: "validation.date_of_birth_min_age" });
    expect(signupProblems({ ...good, day: "16" }, today).date_of_birth?.values).toEqual({ min_age: 18 });
    expect(keys({ day: "", month: "", year: "" })).toEqual({ date_of_birth: "validation.date_of_birth_min_age" });
    expect(keys({ day: "31", month: "2", year: "1990" })).toEqual({
      date_of_birth: "validation.date_of_birth_invalid",
    });
    expect(keys({ day: "", year: "1990" })).toEqual({ date_of_birth: "validation.date_of_birth_invalid" });
  });

  it("checks e-mail, password, gender and terms", () => {
    expect(keys({ email: "anna@", username: "anna" })).toEqual({ email: "validation.email_invalid" });
    expect(keys({ password: "short" })).toEqual({ password: "validation.password_too_short" });
    expect(keys({ gender: "", terms: false })).toEqual({
      gender: "validation.gender_required",
      terms: "validation.terms_required",
    });
  });

  it("sends the date of birth as YYYY-MM-DD and counts full years", () => {
    expect(dateOfBirth("5", "3", "1990")).toBe("1990-03-05");
    expect(dateOfBirth("29", "2", "2001")).toBeNull();
    expect(dateOfBirth("29", "2", "2000")).toBe("2000-02-29");
    expect(ageOn("2008-06-16", today)).toBe(17);
    expect(ageOn("2008-06-15", today)).toBe(18);
  });
});

describe("server errors in a form", () => {
  const t = ((key: string) => key) as Parameters<typeof formErrors>[2];

  it("puts each field's text under that field and the rest on the form", () => {
    const error = new ApiRequestError(400, {
      error: "invalid",
      message: "Invalid email",
      field: "email",
      fields: { email: "Invalid email", username: "Taken" },
    });
    expect(formErrors(error, ["email", "username"], t)).toEqual({
      fields: { email: "Invalid email", username: "Taken" },
      message: null,
    });
    const token = new ApiRequestError(400, {
      error: "link_expired",
      message: "Link expired or invalid, request a new email",
      field: "token",
    });
    expect(formErrors(token, ["password", "password_repeat"], t)).toEqual({
      fields: {},
      message: "Link expired or invalid, request a new email",
    });
    expect(formErrors(new TypeError("Failed to fetch"), ["email"], t)).toEqual({
      fields: {},
      message: "errors.try_again_later",
    });
  });
});

describe("account-activation reminder (SPEC §2 Alerts)", () => {
  const unconfirmed = { status: "not_confirmed", notifications_disabled: [] as string[] };

  it("shows for an unconfirmed member whose mail is not disabled, except on signup and settings", () => {
    expect(showActivationReminder(unconfirmed, "members")).toBe(true);
    expect(showActivationReminder(unconfirmed, "signup")).toBe(false);
    expect(showActivationReminder(unconfirmed, "notifications")).toBe(false);
    expect(showActivationReminder({ ...unconfirmed, notifications_disabled: ["bounce"] }, "members")).toBe(false);
    expect(showActivationReminder({ ...unconfirmed, status: "active" }, "members")).toBe(false);
    expect(showActivationReminder(null, "members")).toBe(false);
  });
});

describe("signup steps (SPEC §4)", () => {
  it("go from 0 to 4, then complete, and back", () => {
    const seen = [0];
    let step: number | "complete" = 0;
    while (step !== "complete") seen.push((step = nextStep(step)) as number);
    expect(seen).toEqual([0, 1, 2, 3, 4, "complete"]);
    expect(previousStep("complete")).toBe(4);
    expect(previousStep(0)).toBe(0);
  });
});
