import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { asOperator, operator } from "../console";
import { loadProfiles } from "../fixtures";

/** 120 of each queue's items, more than two pages of 50: every one must be reachable, oldest first. */
const ITEMS = 120;
const DAY = 86_400;
const now = Math.floor(Date.now() / 1000);
/** The oldest item waited ten days and a bit; each next one a minute less (all "10 d" in the list). */
const filedAt = (i: number) => now - 10 * DAY - (ITEMS - i) * 60;
const ids = { photos: [] as number[], reports: [] as number[], appeals: [] as number[], verifications: [] as number[] };

// Loading a few hundred waiting items takes seconds on a busy machine: more than the default ten.
beforeAll(async () => {
  await loadProfiles(
    Array.from({ length: ITEMS }, (_, i) => ({
      id: 7000 + i,
      name: `Waiting ${i}`,
      country: "NL",
      gender: "female" as const,
      age: 30,
      photos: [{ status: "pending" }],
    })),
  );
  const moderator = await operator("moderator");
  const first = (await env.DB.prepare("SELECT id FROM operators WHERE email = ?")
    .bind(moderator)
    .first<{ id: number }>())!.id;
  const db = env.DB;
  const statements = [];
  for (let i = 0; i < ITEMS; i++) {
    const profile = 7000 + i;
    statements.push(
      db.prepare("UPDATE photos SET created_at = ? WHERE profile_id = ?").bind(filedAt(i), profile),
      db
        .prepare(
          "INSERT INTO reports (reporter_key, email, subject, description, target_key, profile_id, site_domain, language, client_address, created_at) VALUES (?, 'r@example.invalid', 'scam', 'Asks for money.', ?, ?, 'nl.test', 'en', '192.0.2.1', ?)",
        )
        .bind(`key-${i}`, `profile:${profile}`, profile, filedAt(i)),
      db
        .prepare(
          "INSERT INTO verifications (profile_id, site_domain, pose, selfie_key, asked_at) VALUES (?, 'nl.test', 'peace', NULL, ?)",
        )
        .bind(profile, filedAt(i)),
      db
        .prepare(
          "INSERT INTO moderation_decisions (user_id, profile_id, source, outcome, ground, facts, restricts, language, operator_id, created_at, appeal_until) VALUES (?, ?, 'report', 'restrict', 'scam', 'Asked for money.', 1, 'en', ?, ?, ?)",
        )
        .bind(profile, profile, first, filedAt(i) - DAY, now + 100 * DAY),
      db
        .prepare(
          "INSERT INTO appeals (decision_id, user_id, text, status, created_at) VALUES (last_insert_rowid(), ?, 'I did nothing wrong.', 'open', ?)",
        )
        .bind(profile, filedAt(i)),
    );
  }
  await db.batch(statements);
  const all = async (sql: string) => (await db.prepare(sql).all<{ id: number }>()).results.map((r) => r.id);
  ids.photos = await all("SELECT id FROM photos WHERE status = 'pending' ORDER BY created_at, id");
  ids.reports = await all("SELECT id FROM reports WHERE status = 'open' ORDER BY created_at, id");
  ids.appeals = await all("SELECT id FROM appeals WHERE status = 'open' ORDER BY created_at, id");
  ids.verifications = await all("SELECT id FROM verifications WHERE status = 'pending' ORDER BY asked_at, id");
}, 60_000);

/** The ids a queue's page links to, in the page's order. */
function linked(html: string, pattern: RegExp): number[] {
  return [...html.matchAll(pattern)].map((m) => Number(m[1]));
}

const QUEUES = [
  { path: "/photos", size: 50, items: () => ids.photos, pattern: /href="\/photos\/(\d+)"/g },
  { path: "/reports", size: 50, items: () => ids.reports, pattern: /href="\/reports\/(\d+)"/g },
  { path: "/appeals", size: 50, items: () => ids.appeals, pattern: /href="\/appeals\/(\d+)"/g },
  { path: "/verifications", size: 20, items: () => ids.verifications, pattern: /data-verification="(\d+)"/g },
] as const;

describe("every console queue", { timeout: 60_000 }, () => {
  for (const queue of QUEUES)
    it(`${queue.path}: its true count, every item over its pages oldest first, each with its waiting time`, async () => {
      const moderator = await operator("moderator");
      expect(queue.items()).toHaveLength(ITEMS);
      const pages = Math.ceil(ITEMS / queue.size);
      const seen: number[] = [];
      for (let page = 1; page <= pages; page++) {
        const response = await asOperator(moderator, `${queue.path}?page=${page}`);
        expect(response.status).toBe(200);
        const html = await response.text();
        const onPage = linked(html, queue.pattern);
        expect(onPage, `page ${page}`).toHaveLength(Math.min(queue.size, ITEMS - (page - 1) * queue.size));
        seen.push(...onPage);
        expect(html).toContain(`data-queue-total="${ITEMS}"`);
        expect(html).toContain(`${ITEMS} waiting`);
        expect(html).toContain(`page ${page} of ${pages}`);
        expect(html.includes(`href="${queue.path}?page=${page + 1}"`)).toBe(page < pages);
        expect(html.includes(`href="${queue.path}?page=${page - 1}"`)).toBe(page > 1);
        // How long each has waited: ten days, for every item on the page.
        expect(html.split(queue.path === "/verifications" ? "waiting 10 d" : "<td>10 d</td>").length - 1).toBe(
          onPage.length,
        );
      }
      // Every item once, in the order they came.
      expect(seen).toEqual(queue.items());
      // A page past the end lists nothing and leads back; a page that is no number is the first.
      const past = await (await asOperator(moderator, `${queue.path}?page=${pages + 1}`)).text();
      expect(linked(past, queue.pattern)).toEqual([]);
      expect(past).toContain(`href="${queue.path}?page=${pages}"`);
      const odd = await (await asOperator(moderator, `${queue.path}?page=abc`)).text();
      expect(linked(odd, queue.pattern)).toEqual(queue.items().slice(0, queue.size));
    });

  it("the queues are the moderators' only", async () => {
    const support = await operator("support");
    for (const queue of QUEUES) expect((await asOperator(support, `${queue.path}?page=2`)).status).toBe(403);
  });

  it("the reports and appeals queues answer their count and page to the command line too", async () => {
    const moderator = await operator("moderator");
    const reports = (await (
      await asOperator(moderator, "/reports?page=3", { headers: { accept: "application/json" } })
    ).json()) as { reports: { id: number }[]; total: number; page: number };
    expect(reports.total).toBe(ITEMS);
    expect(reports.reports.map((r) => r.id)).toEqual(ids.reports.slice(100));
    const appeals = (await (
      await asOperator(moderator, "/appeals?page=2", { headers: { accept: "application/json" } })
    ).json()) as { appeals: { id: number }[]; total: number };
    expect(appeals.total).toBe(ITEMS);
    expect(appeals.appeals.map((a) => a.id)).toEqual(ids.appeals.slice(50, 100));
  });
});
