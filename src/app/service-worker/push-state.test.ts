import { describe, expect, it } from "vitest";
import { showPushAlert } from "../components/Alerts";
import { pushStateOf, type PushFacts } from "./push-state";

const facts = (over: Partial<PushFacts>): PushFacts => ({
  capable: true,
  publicKey: "BKey",
  permission: "default",
  subscribed: false,
  ...over,
});

describe("push state (SPEC §3, §4)", () => {
  it("is capable while the browser could subscribe and has not, subscribed once it has, denied when the member refused", () => {
    expect(pushStateOf(facts({}))).toBe("capable");
    expect(pushStateOf(facts({ permission: "granted" }))).toBe("capable");
    expect(pushStateOf(facts({ permission: "granted", subscribed: true }))).toBe("subscribed");
    expect(pushStateOf(facts({ permission: "denied", subscribed: true }))).toBe("denied");
    expect(pushStateOf(facts({ permission: "denied", subscribed: null }))).toBe("denied");
  });

  it("is unknown until the registration was asked, and unsupported without the browser's means or the site's key", () => {
    expect(pushStateOf(facts({ subscribed: null }))).toBe("unknown");
    expect(pushStateOf(facts({ capable: false, permission: null }))).toBe("unsupported");
    expect(pushStateOf(facts({ publicKey: "" }))).toBe("unsupported");
    expect(pushStateOf(facts({ publicKey: "", permission: "granted", subscribed: true }))).toBe("unsupported");
  });

  it("a subscription left from a permission since taken back is not counted as subscribed", () => {
    expect(pushStateOf(facts({ permission: "default", subscribed: true }))).toBe("capable");
  });
});

describe("the push alert (SPEC §2 Alerts)", () => {
  const member = { profile: { id: 1 } };

  it("shows to a member whose browser could subscribe, until dismissed", () => {
    expect(showPushAlert(member, "capable", "members", null)).toBe(true);
    expect(showPushAlert(member, "capable", null, null)).toBe(true);
    expect(showPushAlert(member, "capable", "members", "1700000000000")).toBe(false);
    expect(showPushAlert(null, "capable", "members", null)).toBe(false);
  });

  it("does not show once subscribed, when denied, unsupported or not known yet", () => {
    for (const state of ["subscribed", "denied", "unsupported", "unknown"] as const)
      expect(showPushAlert(member, state, "members", null), state).toBe(false);
  });

  it("does not show on signup, notifications, activate-done, directdebit and premium", () => {
    for (const route of ["signup", "complete-signup", "notifications", "activate-done", "directdebit", "premium"])
      expect(showPushAlert(member, "capable", route, null), route).toBe(false);
    for (const route of ["members", "chats", "likes", "settings", "profile"])
      expect(showPushAlert(member, "capable", route, null), route).toBe(true);
  });
});
