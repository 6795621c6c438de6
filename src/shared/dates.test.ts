import { describe, expect, it } from "vitest";
import { memberDate } from "./dates";

describe("a member's dates", () => {
  // 23:57 UTC on 1 December is 00:57 on 2 December in Amsterdam.
  const receipt = Date.UTC(2026, 11, 1, 23, 57) / 1000;
  const decision = receipt + 5 * 60;

  it("a receipt and a decision five minutes later fall on the same day of the site's time zone", () => {
    expect(memberDate(receipt, "en", "Europe/Amsterdam", "dateTime")).toBe("Dec 2, 2026, 12:57 AM");
    expect(memberDate(decision, "en", "Europe/Amsterdam")).toBe("December 2, 2026");
    expect(memberDate(decision, "nl", "Europe/Amsterdam")).toBe("2 december 2026");
  });

  it("follow the site's zone, not the machine's", () => {
    expect(memberDate(receipt, "en", "UTC")).toBe("December 1, 2026");
    expect(memberDate(receipt, "fi", "Europe/Helsinki")).toBe("2. joulukuuta 2026");
  });
});
