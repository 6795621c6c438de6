import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { ProfileResponse, SearchResponse } from "../../src/shared/api";
import type { ChatsResponse } from "../../src/shared/chat";
import { ChatSocket, chatMember, clientId } from "../chat";
import { loadProfiles, putSites, site } from "../fixtures";
import { fetchWorker, json } from "../http";

// SPEC §6: premium members (paid_user) carry a badge and a bordered main photo wherever others see them.
beforeAll(async () => {
  await putSites(site("nl.test"));
  await loadProfiles([
    { id: 1, name: "Paula", country: "NL", gender: "female", age: 30, photos: [{ status: "active", main: true }] },
    { id: 2, name: "Fenna", country: "NL", gender: "female", age: 31, photos: [{ status: "active", main: true }] },
  ]);
  await env.DB.prepare("UPDATE users SET paid_user = 1 WHERE id = 1").run();
});

/** A page's HTML without React's text separators. */
const page = async (path: string) =>
  (await (await fetchWorker(`http://nl.test${path}`, { headers: { cookie: "locale=en" } })).text()).replaceAll(
    "<!-- -->",
    "",
  );
const heading = (html: string) => /<h1>.*?<\/h1>/.exec(html)?.[0] ?? "";
const profile = async (id: number) =>
  json<ProfileResponse>(await fetchWorker(`http://nl.test/api/profile.php?id=${id}`));

describe("the premium mark of other members", () => {
  it("says premium on a premium member's card and profile, and not on a free member's", async () => {
    const search = await json<SearchResponse>(await fetchWorker("http://nl.test/api/search.php?gender=female"));
    expect(search.profiles.map((p) => [p.id, p.premium])).toEqual([
      [2, false],
      [1, true],
    ]);
    const paula = await profile(1);
    expect(paula.profile.premium).toBe(true);
    expect(paula.related.map((p) => [p.id, p.premium])).toEqual([[2, false]]);
    const fenna = await profile(2);
    expect(fenna.profile.premium).toBe(false);
    expect(fenna.related.map((p) => [p.id, p.premium])).toEqual([[1, true]]);
  });

  it("shows the badge and a bordered main photo on a premium member's page and card only", async () => {
    const paula = await page("/members/1");
    expect(heading(paula)).toMatch(/^<h1>Paula, 30 .*<span class="badge badge--premium">Premium<\/span><\/h1>$/);
    expect(paula).toContain('<div class="member__main-photo is-premium"><img src="/media/p/');
    expect(paula).not.toContain('class="is-premium"');

    // Fenna's page: her own main photo without a border and no badge, Paula's related card with both.
    const fenna = await page("/members/2");
    expect(heading(fenna)).not.toContain("badge--premium");
    expect(fenna).toContain('<div class="member__main-photo"><img');
    expect(fenna).toMatch(
      /<div class="profile-card__photo"><img[^>]*alt="Paula"[^>]*class="is-premium"\/>[^]*?<strong class="profile-card__name">Paula, 30<\/strong>[^<]*<img class="fictional-mark"[^>]*><span class="badge badge--premium">Premium<\/span>/,
    );

    // Search results: the badge on Paula's card only.
    const members = await page("/members?gender=female");
    expect(members.match(/badge--premium/g)).toHaveLength(1);
    expect(members.match(/class="is-premium"/g)).toHaveLength(1);
    expect(members).toMatch(/<img[^>]*alt="Paula"[^>]*class="is-premium"\/>/);
    expect(members).toMatch(
      /Paula, 30<\/strong>[^<]*<img class="fictional-mark"[^>]*><span class="badge badge--premium">/,
    );
    expect(members).toMatch(
      /Fenna, 31<\/strong>[^<]*<img class="fictional-mark"[^>]*><span class="profile-card__place">/,
    );
  });
});

describe("the premium mark in the chat list", () => {
  it("borders a premium member's photo in /chats, and not a free member's", async () => {
    const viewer = await chatMember("http://nl.test", { paid: true, credits: 100 });
    for (const peer of [1, 2]) {
      const socket = await ChatSocket.open(viewer, peer);
      const id = clientId();
      socket.sendText(id, "Hallo!");
      await socket.next((f) => f.type === "ack" && f.client_id === id);
      socket.ws.close();
    }
    const { chats } = await json<ChatsResponse>(await viewer.browser.fetch("/api/chats.php"));
    expect(chats.map((c) => [c.profile.name, c.profile.premium]).toSorted()).toEqual([
      ["Fenna", false],
      ["Paula", true],
    ]);
    const html = (await (await viewer.browser.fetch("/chats")).text()).replaceAll("<!-- -->", "");
    expect(html.match(/class="avatar is-premium"/g)).toHaveLength(1);
    expect(html).toMatch(
      /<img class="avatar is-premium"[^>]*>\s*<span class="chat-item__text"><span class="chat-item__name">Paula</,
    );
    expect(html).toMatch(
      /<img class="avatar"[^>]*>\s*<span class="chat-item__text"><span class="chat-item__name">Fenna</,
    );
  });
});
