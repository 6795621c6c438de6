import { beforeAll, describe, expect, it } from "vitest";
import de from "../../locales/de.json";
import nl from "../../locales/nl.json";
import { putSites, site } from "../fixtures";
import { fetchWorker, json } from "../http";

beforeAll(async () => {
  await putSites(
    site("nl.test", { domain_language: "nl" }),
    site("de.test", { domain_language: "de", countries: ["DE", "AT", "CH"], minimum_message_costs: {} }),
  );
});

describe("web app manifest (installable)", () => {
  it("has an id, PNG icons of 192 and 512 px and a maskable one, the theme and a description in the site's language", async () => {
    const manifest = (await json(await fetchWorker("http://de.test/manifest.webmanifest"))) as Record<
      string,
      unknown
    > & { icons: { src: string; sizes: string; type: string; purpose: string }[] };
    expect(manifest).toMatchObject({
      id: "/",
      scope: "/",
      start_url: "/members",
      display: "standalone",
      lang: "de",
      theme_color: "#e8412c",
      background_color: "#fbf6f4",
    });
    expect(typeof manifest.description).toBe("string");
    expect((manifest.description as string).length).toBeGreaterThan(0);
    const png = manifest.icons.filter((i) => i.type === "image/png").map((i) => `${i.src} ${i.sizes} ${i.purpose}`);
    expect(png).toEqual([
      "/icons/icon-192.png 192x192 any",
      "/icons/icon-512.png 512x512 any",
      "/icons/icon-maskable-512.png 512x512 maskable",
    ]);
  });
});

describe("the offline page", () => {
  it("speaks the language asked for, says which language it is, and needs no script or other file", async () => {
    const res = await fetchWorker("http://nl.test/offline.html?lang=de");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-language")).toBe("de");
    const page = await res.text();
    expect(page).toContain('<html lang="de">');
    expect(page).toContain(`<h1>${de.app_install.offline.title}</h1>`);
    expect(page).toContain(de.app_install.offline.retry);
    expect(page).not.toMatch(/<script|<img|<link|src=/);
  });

  it("names the site, in the text and under its logo, which stands in the page itself", async () => {
    for (const [url, texts] of [
      ["http://nl.test/offline.html", nl],
      ["http://de.test/offline.html?lang=de", de],
    ] as const) {
      const page = await (await fetchWorker(url)).text();
      const name = `Testwave ${new URL(url).hostname}`;
      expect(page).toContain(`<p>${texts.app_install.offline.text.replace("{site}", name)}</p>`);
      expect(page).toMatch(
        new RegExp(`<div class="brand"><span aria-hidden="true"><svg [^]*</svg></span>${name}</div>`),
      );
      // No placeholder reaches the page as it stands, in either form.
      expect(page.slice(page.indexOf("<body>"))).not.toMatch(/\{\{?\w+\}\}?/);
    }
  });

  it("without a language asked for, is in the site's language; an unknown one changes nothing", async () => {
    for (const url of ["http://nl.test/offline.html", "http://nl.test/offline.html?lang=xx"]) {
      const res = await fetchWorker(url);
      expect(res.headers.get("content-language")).toBe("nl");
      expect(await res.text()).toContain(`<h1>${nl.app_install.offline.title}</h1>`);
    }
  });
});
