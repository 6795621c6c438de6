import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CHUNK_RELOAD_GUARD_MS, isChunkLoadError, reloadForChunkError } from "../../src/app/page/chunk-reload";
import { shouldShowEntryWarning } from "../../src/app/components/EntryWarning";
import { errorStatus } from "../../src/app/components/ErrorPage";
import {
  loading,
  LOADING_DURATION_MS,
  LOADING_HIDE_DELAY_MS,
  LOADING_THROTTLE_MS,
} from "../../src/app/components/LoadingBar";
import { showActivationReminder, showPhotoAlert } from "../../src/app/components/Alerts";
import { showBackButton } from "../../src/app/components/BackButton";
import { badgeText, creditBadge } from "../../src/app/components/TopBar";
import { searchFilters, searchInfiniteKey, searchPageKey } from "../../src/app/page/page-data";
import { ageOn, birthDateRange } from "../../src/shared/ages";

describe("top bar badges (SPEC §2)", () => {
  it("shows unread counts, 99+ from 100, nothing at 0", () => {
    expect(badgeText(0)).toBeNull();
    expect(badgeText(1)).toBe("1");
    expect(badgeText(99)).toBe("99");
    expect(badgeText(100)).toBe("99+");
    expect(badgeText(2500)).toBe("99+");
  });

  it("shows paid users their credits at 10 or fewer: warning above 0, danger at 0", () => {
    expect(creditBadge({ paid_user: true, credits: 11 })).toBeNull();
    expect(creditBadge({ paid_user: true, credits: 10 })).toEqual({ text: "10", tone: "warning" });
    expect(creditBadge({ paid_user: true, credits: 1 })).toEqual({ text: "1", tone: "warning" });
    expect(creditBadge({ paid_user: true, credits: 0 })).toEqual({ text: "0", tone: "danger" });
    expect(creditBadge({ paid_user: false, credits: 0 })).toBeNull();
  });
});

describe("alerts (SPEC §2)", () => {
  const member = {
    status: "active",
    notifications_disabled: [] as string[],
    profile: { id: 1, name: "A", main_image: null },
  };

  it("asks for a profile photo while there is no main image, until dismissed, not on the excluded routes", () => {
    expect(showPhotoAlert(member, "members", null)).toBe(true);
    expect(
      showPhotoAlert(
        {
          profile: {
            ...member.profile,
            main_image: { filename: "p", thumb_filename: "t", status: "active", match: "p" },
          },
        },
        "members",
        null,
      ),
    ).toBe(false);
    expect(showPhotoAlert(member, "members", "1700000000000")).toBe(false);
    for (const route of ["profile", "signup", "activate-done", "premium", "notifications", "directdebit", "settings"])
      expect(showPhotoAlert(member, route, null), route).toBe(false);
    expect(showPhotoAlert(null, "members", null)).toBe(false);
  });

  it("reminds an unconfirmed member to activate, unless mail is disabled, not on signup or settings", () => {
    expect(showActivationReminder({ ...member, status: "not_confirmed" }, "members")).toBe(true);
    expect(
      showActivationReminder({ ...member, status: "not_confirmed", notifications_disabled: ["bounce"] }, "members"),
    ).toBe(false);
    expect(showActivationReminder({ ...member, status: "not_confirmed" }, "notifications")).toBe(false);
    expect(showActivationReminder(member, "members")).toBe(false);
  });
});

describe("Back button (SPEC §2)", () => {
  it("shows only in the installed app, with history, on the routes SPEC names", () => {
    for (const route of ["members-id", "likes-type", "likes-m-id", "credits", "credits-id-paymentmethod"])
      expect(showBackButton(true, 2, route), route).toBe(true);
    expect(showBackButton(false, 2, "members-id")).toBe(false);
    expect(showBackButton(true, 1, "members-id")).toBe(false);
    expect(showBackButton(true, 5, "members")).toBe(false);
    expect(showBackButton(true, 5, null)).toBe(false);
  });
});

describe("site-entry warning (SPEC §4)", () => {
  const base = {
    enabled: true,
    loggedIn: false,
    installedApp: false,
    country: "NL",
    siteCountries: ["NL", "BE"],
    skippedAt: null,
  };

  it("shows for a visitor from a country the site serves", () => {
    expect(shouldShowEntryWarning(base)).toBe(true);
  });

  it("does not show when disabled, skipped, logged in, in the installed app or for another country", () => {
    expect(shouldShowEntryWarning({ ...base, enabled: false })).toBe(false);
    expect(shouldShowEntryWarning({ ...base, skippedAt: "1700000000000" })).toBe(false);
    expect(shouldShowEntryWarning({ ...base, loggedIn: true })).toBe(false);
    expect(shouldShowEntryWarning({ ...base, installedApp: true })).toBe(false);
    expect(shouldShowEntryWarning({ ...base, country: "FR" })).toBe(false);
    expect(shouldShowEntryWarning({ ...base, country: null })).toBe(false);
  });

  it("is limited to NL and DE in the Chat, Lander and Empty layouts", () => {
    expect(shouldShowEntryWarning({ ...base, onlyCountries: ["NL", "DE"] })).toBe(true);
    expect(shouldShowEntryWarning({ ...base, country: "BE", onlyCountries: ["NL", "DE"] })).toBe(false);
  });
});

describe("error page status (SPEC §8)", () => {
  it("takes status, statusCode or the response's status, else 500", () => {
    expect(errorStatus({ status: 404 })).toBe(404);
    expect(errorStatus({ statusCode: 403 })).toBe(403);
    expect(errorStatus({ response: { status: 502 } })).toBe(502);
    expect(errorStatus(new Error("boom"))).toBe(500);
    expect(errorStatus("text")).toBe(500);
  });

  it("reloads once for a chunk that failed to load, and not again within 60 s", () => {
    const store = new Map<string, string>();
    const reload = vi.fn();
    vi.stubGlobal("sessionStorage", {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => store.set(k, v),
    });
    vi.stubGlobal("window", { location: { reload } });
    try {
      expect(reloadForChunkError(1_000_000)).toBe(true);
      expect(reloadForChunkError(1_000_000 + CHUNK_RELOAD_GUARD_MS - 1)).toBe(false);
      expect(reload).toHaveBeenCalledTimes(1);
      expect(reloadForChunkError(1_000_000 + CHUNK_RELOAD_GUARD_MS)).toBe(true);
      expect(reload).toHaveBeenCalledTimes(2);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("recognises a chunk that failed to load", () => {
    expect(isChunkLoadError(new TypeError("Failed to fetch dynamically imported module: /assets/x.js"))).toBe(true);
    expect(isChunkLoadError(new Error("Cannot read properties of undefined"))).toBe(false);
  });
});

describe("loading bar (SPEC §4, §9)", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("waits 200 ms before showing, creeps on over 5000 ms, and hides 500 ms after finishing", () => {
    loading.start();
    vi.advanceTimersByTime(LOADING_THROTTLE_MS - 1);
    expect(loading.state().visible).toBe(false);
    vi.advanceTimersByTime(1);
    expect(loading.state()).toEqual({ visible: true, progress: 5 });
    vi.advanceTimersByTime(LOADING_DURATION_MS / 2);
    const halfway = loading.state().progress;
    expect(halfway).toBeGreaterThan(40);
    expect(halfway).toBeLessThan(60);
    vi.advanceTimersByTime(LOADING_DURATION_MS * 2);
    expect(loading.state().progress).toBe(90);
    loading.finish();
    expect(loading.state()).toEqual({ visible: true, progress: 100 });
    vi.advanceTimersByTime(LOADING_HIDE_DELAY_MS - 1);
    expect(loading.state().visible).toBe(true);
    vi.advanceTimersByTime(1);
    expect(loading.state().visible).toBe(false);
  });

  it("never shows for a navigation that finishes within the throttle", () => {
    loading.start();
    vi.advanceTimersByTime(LOADING_THROTTLE_MS - 50);
    loading.finish();
    vi.advanceTimersByTime(LOADING_THROTTLE_MS * 2);
    expect(loading.state().visible).toBe(false);
  });
});

describe("search keys", () => {
  it("are the same for the same filters in any order and leave out page 1", () => {
    const a = searchFilters(new URLSearchParams("max_age=40&gender=female&utm=x&min_age=25"));
    const b = searchFilters(new URLSearchParams("min_age=25&gender=female&max_age=40"));
    expect(searchPageKey(a, 1)).toBe("/api/search.php?gender=female&min_age=25&max_age=40");
    expect(searchPageKey(a, 1)).toBe(searchPageKey(b, 1));
    expect(searchPageKey(a, 2)).toBe("/api/search.php?gender=female&min_age=25&max_age=40&page=2");
    expect(searchInfiniteKey(a)).toBe(`$inf$${searchPageKey(a, 1)}`);
  });
});

describe("ages", () => {
  const today = new Date("2026-03-15T10:00:00Z");

  it("counts whole years, birthday included", () => {
    expect(ageOn("2000-03-15", today)).toBe(26);
    expect(ageOn("2000-03-16", today)).toBe(25);
    expect(ageOn("2008-02-29", today)).toBe(18);
  });

  it("turns an age range into birth-date bounds with both ends included", () => {
    const { from, to } = birthDateRange(25, 30, today);
    expect(to).toBe("2001-03-15");
    expect(from).toBe("1995-03-16");
    expect(ageOn(to, today)).toBe(25);
    expect(ageOn(from, today)).toBe(30);
  });
});
