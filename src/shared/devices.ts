/**
 * The device of a session as the sessions list names it ("Chrome on Android"): read once from the
 * User-Agent at login and stored as "browser/system", so neither the raw header nor an address is kept.
 */

/** Browsers by their own (untranslated) names; the order is the order in which the User-Agent is tested. */
const BROWSERS = [
  ["edge", /\bEdg(e|A|iOS)?\//, "Edge"],
  ["opera", /\bOPR\/|\bOpera\b/, "Opera"],
  ["samsung", /\bSamsungBrowser\//, "Samsung Internet"],
  ["firefox", /\b(Firefox|FxiOS)\//, "Firefox"],
  ["chrome", /(Chrome|CriOS|Chromium)\//, "Chrome"],
  ["safari", /\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
] as const;

const SYSTEMS = [
  ["iphone", /\biPhone\b/, "iPhone"],
  ["ipad", /\biPad\b/, "iPad"],
  ["android", /\bAndroid\b/, "Android"],
  ["windows", /\bWindows\b/, "Windows"],
  ["chromeos", /\bCrOS\b/, "ChromeOS"],
  ["macos", /\bMac OS X\b|\bMacintosh\b/, "macOS"],
  ["linux", /\bLinux\b/, "Linux"],
] as const;

type Browser = (typeof BROWSERS)[number][0];
type System = (typeof SYSTEMS)[number][0];
const OTHER = "other";

/** The stored device of a User-Agent: "chrome/android", "safari/iphone", "other/other" when unknown. */
export function deviceOf(userAgent: string | undefined): string {
  const ua = (userAgent ?? "").slice(0, 512);
  const browser = BROWSERS.find(([, pattern]) => pattern.test(ua))?.[0] ?? OTHER;
  const system = SYSTEMS.find(([, pattern]) => pattern.test(ua))?.[0] ?? OTHER;
  return `${browser}/${system}`;
}

/**
 * The readable parts of a stored device: a product name, or null where only a translated word
 * ("an unknown browser") can say it. A session older than the column has no device.
 */
export function deviceNames(device: string | null): { browser: string | null; system: string | null } {
  const [browser, system] = (device ?? "").split("/");
  return {
    browser: BROWSERS.find(([key]) => key === (browser as Browser))?.[2] ?? null,
    system: SYSTEMS.find(([key]) => key === (system as System))?.[2] ?? null,
  };
}
