import { beforeAll, describe, expect, it } from "vitest";
import { loadProfiles, putSites, site } from "../fixtures";
import { fetchWorker } from "../http";

beforeAll(async () => {
  await putSites(site("nl.test"));
  await loadProfiles([]);
});

/** The directives of a content security policy, by name. */
function directives(header: string | null): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of (header ?? "").split(";")) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name, values);
  }
  return map;
}

describe("content security policy", () => {
  it("lets a page fetch and open sockets only to its own host, names the service worker and the manifest", async () => {
    const res = await fetchWorker("https://nl.test/members");
    const csp = directives(res.headers.get("content-security-policy"));
    expect(csp.get("connect-src")).toEqual(["'self'", "wss://nl.test"]);
    expect(csp.get("worker-src")).toEqual(["'self'"]);
    expect(csp.get("manifest-src")).toEqual(["'self'"]);
    expect(csp.get("default-src")).toEqual(["'self'"]);
    expect(csp.get("object-src")).toEqual(["'none'"]);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    const scripts = csp.get("script-src") ?? [];
    expect(scripts).toContain("'self'");
    expect(scripts.some((s) => /^'nonce-[^']+'$/.test(s))).toBe(true);
    const all = [...csp.values()].flat();
    expect(all).not.toContain("ws:");
    expect(all).not.toContain("wss:");
    expect(all).not.toContain("*");
  });

  it("names the request's own host and port, and plain ws: only in development over http", async () => {
    const https = directives(
      (await fetchWorker("https://www.nl.test:8443/members")).headers.get("content-security-policy"),
    );
    expect(https.get("connect-src")).toEqual(["'self'", "wss://www.nl.test:8443"]);
    const http = directives((await fetchWorker("http://nl.test:8787/members")).headers.get("content-security-policy"));
    expect(http.get("connect-src")).toEqual(["'self'", "wss://nl.test:8787", "ws://nl.test:8787"]);
  });

  it("gives each page its own nonce", async () => {
    const nonce = async () =>
      /'nonce-([^']+)'/.exec(
        (await fetchWorker("https://nl.test/members")).headers.get("content-security-policy") ?? "",
      )?.[1];
    expect(await nonce()).not.toBe(await nonce());
  });
});

describe("permissions policy", () => {
  it("allows geolocation and the camera (the verification selfie) on the site's own pages and denies every other feature, on a page and on an API answer", async () => {
    for (const path of ["/members", "/api/settings.php", "/api/user.php"]) {
      const res = await fetchWorker(`https://nl.test${path}`);
      const policy = new Map(
        (res.headers.get("permissions-policy") ?? "").split(/,\s*/).map((d) => d.split("=") as [string, string]),
      );
      expect(policy.get("geolocation"), path).toBe("(self)");
      expect(policy.get("camera"), path).toBe("(self)");
      for (const feature of [
        "microphone",
        "payment",
        "usb",
        "interest-cohort",
        "browsing-topics",
        "serial",
        "hid",
        "display-capture",
      ]) {
        expect(policy.get(feature), `${path} ${feature}`).toBe("()");
      }
      expect(
        [...policy].filter(([, allow]) => allow !== "()").map(([feature]) => feature),
        path,
      ).toEqual(["geolocation", "camera"]);
      expect(res.headers.get("content-security-policy"), path).toContain("connect-src 'self' wss://nl.test");
    }
  });
});
