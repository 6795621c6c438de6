import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { chatMember, type Member } from "../chat";
import { putSites, site } from "../fixtures";
import { Browser, json } from "../http";
import { asOperator, operator } from "../console";
import { notifierKey } from "../../src/server/services/notifier";

const ORIGIN = "http://notices.test";
let address = 0;

/** Each filer uses its own network address, so the per-address limit of one test leaves the others alone. */
function fromOwnAddress<T extends { fetch: Browser["fetch"] }>(browser: T): T {
  const fetch = browser.fetch.bind(browser);
  const ip = `198.51.100.${++address}`;
  browser.fetch = (path, init = {}) =>
    fetch(path, { ...init, headers: { ...(init.headers as Record<string, string>), "cf-connecting-ip": ip } });
  return browser;
}
async function member(name: string): Promise<Member> {
  const m = await chatMember(ORIGIN, { name });
  fromOwnAddress(m.browser);
  return m;
}
function visitor(): Browser {
  const browser = fromOwnAddress(new Browser(ORIGIN));
  browser.cookies.set("locale", "en");
  return browser;
}

const notice = {
  subject: "harassment",
  description: "Keeps threatening me in his profile text.",
  category: "illegal_or_harmful_speech",
  good_faith: true,
};
const row = (id: number) =>
  env.DB.prepare(
    "SELECT reporter_name, email, good_faith, category, basis, law, location, photo_id, queue, reporter_user_id FROM reports WHERE id = ?",
  )
    .bind(id)
    .first();
const count = async () => (await env.DB.prepare("SELECT count(*) AS n FROM reports").first<{ n: number }>())!.n;

beforeAll(async () => {
  await putSites(site("notices.test", { domain_language: "en" }));
});

describe("a notice holds what Art. 16(2) lists", () => {
  it("stores a member's notice with the account's name and address, the category, good faith and location", async () => {
    const reporter = await member("Notifier");
    const reported = await member("Target");
    const res = await reporter.browser.post("/api/report.php", { ...notice, profile_id: reported.id });
    expect(res.status).toBe(201);
    const { report } = await json<{ report: { id: number; queue: string } }>(res);
    expect(report.queue).toBe("moderation");
    expect(await row(report.id)).toMatchObject({
      reporter_name: expect.stringMatching(/\S/),
      good_faith: 1,
      category: "illegal_or_harmful_speech",
      basis: "terms",
      law: null,
      location: `${ORIGIN}/members/${reported.id}`,
      queue: "moderation",
    });
  });

  it("asks a visitor for name and e-mail, illegal content for its law, everyone for good faith; stores nothing refused", async () => {
    const reported = await member("Other");
    const before = await count();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...notice, email: "v@example.com" }, "name", "Give your name."],
      [{ ...notice, name: "Vera" }, "email", ""],
      [
        { ...notice, name: "Vera", email: "v@example.com", good_faith: false },
        "good_faith",
        "Confirm that you report in good faith.",
      ],
      [{ ...notice, name: "Vera", email: "v@example.com", category: undefined }, "category", "Choose a category."],
      [
        { ...notice, subject: "illegal_content", name: "Vera", email: "v@example.com" },
        "law",
        "Name the law the content breaks.",
      ],
      [
        { ...notice, anonymous: true },
        "anonymous",
        "Only a report of child sexual abuse material can be sent anonymously.",
      ],
    ];
    for (const [body, field, message] of cases) {
      const res = await visitor().post("/api/report.php", { ...body, profile_id: reported.id });
      expect(res.status, field).toBe(400);
      const answer = await json<{ field: string; message: string }>(res);
      expect(answer.field).toBe(field);
      if (message) expect(answer.message).toBe(message);
    }
    expect(await count()).toBe(before);

    const illegal = await visitor().post("/api/report.php", {
      ...notice,
      subject: "illegal_content",
      name: "Vera Visser",
      email: "vera@example.com",
      law: "Criminal code, art. 285 (threats)",
      profile_id: reported.id,
    });
    expect(illegal.status).toBe(201);
    const { report } = await json<{ report: { id: number } }>(illegal);
    expect(await row(report.id)).toMatchObject({
      reporter_name: "Vera Visser",
      basis: "illegal",
      law: "Criminal code, art. 285 (threats)",
    });
    const mails = await env.DB.prepare(
      "SELECT kind, text FROM outgoing_mail WHERE to_address = 'vera@example.com'",
    ).all<{ kind: string; text: string }>();
    expect(mails.results.map((m) => m.kind)).toEqual(["report"]);
    expect(mails.results[0]!.text).toContain(String(report.id));
  });

  it("lets only a notifier of child sexual abuse material stay anonymous, without a mail", async () => {
    const reported = await member("Csam");
    const res = await visitor().post("/api/report.php", {
      ...notice,
      subject: "underage",
      category: "child_sexual_abuse_material",
      anonymous: true,
      profile_id: reported.id,
    });
    expect(res.status).toBe(201);
    const { report } = await json<{ report: { id: number } }>(res);
    expect(await row(report.id)).toMatchObject({ reporter_name: null, email: "", reporter_user_id: null });
  });

  it("reports one photo of a profile, once, and refuses a photo of another profile", async () => {
    const reporter = await member("PhotoFan");
    const reported = await member("PhotoOwner");
    const other = await member("Bystander");
    await env.DB.prepare(
      "INSERT INTO photos (profile_id, key, thumb_key, blur_key, status, width, height) VALUES (?, ?, ?, ?, 'active', 10, 10)",
    )
      .bind(reported.id, `k-${reported.id}`, `t-${reported.id}`, `b-${reported.id}`)
      .run();
    const photo = (await env.DB.prepare("SELECT id FROM photos WHERE profile_id = ?")
      .bind(reported.id)
      .first<{ id: number }>())!.id;
    const body = { ...notice, subject: "inappropriate_content", category: "pornography_or_sexualized_content" };
    const wrong = await reporter.browser.post("/api/report.php", { ...body, profile_id: other.id, photo_id: photo });
    expect(wrong.status).toBe(404);
    expect((await json(wrong)).error).toBe("photo_not_found");
    const attempts = await Promise.all(
      Array.from({ length: 4 }, () =>
        reporter.browser.post("/api/report.php", { ...body, profile_id: reported.id, photo_id: photo }),
      ),
    );
    expect(attempts.map((r) => r.status).toSorted()).toEqual([201, 409, 409, 409]);
    const stored = await env.DB.prepare("SELECT photo_id, location FROM reports WHERE photo_id = ?").bind(photo).all();
    expect(stored.results).toEqual([{ photo_id: photo, location: `${ORIGIN}/members/${reported.id}#photo-${photo}` }]);
  });
});

describe("questions go to support", () => {
  it("an account question is support's, never in the moderators' queue", async () => {
    const asker = await member("Asker");
    const res = await asker.browser.post("/api/report.php", {
      subject: "account",
      description: "I cannot change my e-mail address.",
    });
    expect(res.status).toBe(201);
    const { report } = await json<{ report: { id: number; queue: string } }>(res);
    expect(report.queue).toBe("support");
    expect(await row(report.id)).toMatchObject({ queue: "support", category: null, good_faith: 0 });
  });
});

describe("the notifier contests a dismissal", () => {
  it("refuses a contest without the key or the account, and of a report not dismissed", async () => {
    const reporter = await member("Contester");
    const reported = await member("Contested");
    const { report } = await json<{ report: { id: number } }>(
      await reporter.browser.post("/api/report.php", { ...notice, profile_id: reported.id }),
    );
    const text = "The profile text is a threat, please look again.";
    const stranger = await visitor().post("/api/report_contest.php", { report_id: report.id, key: "nope", text });
    expect(stranger.status).toBe(404);
    // Open, not dismissed: nothing to contest.
    const early = await reporter.browser.post("/api/report_contest.php", { report_id: report.id, text });
    expect(early.status).toBe(404);
    expect((await json(early)).message).toBe("There is no dismissed report to contest here.");
    const short = await reporter.browser.post("/api/report_contest.php", { report_id: report.id, text: "no" });
    expect(short.status).toBe(400);
  });
});

describe("a dismissal contested by its notifier", { timeout: 60_000 }, () => {
  it("is filed once by the mailed key, decided by another operator, and reversed opens the report again", async () => {
    const reporter = await member("Objector");
    const reported = await member("Dismissed");
    const { report } = await json<{ report: { id: number } }>(
      await reporter.browser.post("/api/report.php", { ...notice, profile_id: reported.id }),
    );
    const [first, second] = [await operator("moderator"), await operator("moderator")];
    const dismissed = await asOperator(first, `/reports/${report.id}/decide`, {
      form: { outcome: "dismiss", facts: "" },
    });
    expect(dismissed.status).toBe(200);

    const key = await notifierKey(env.SESSION_SECRET, report.id);
    const text = "His profile text threatens me, please look again.";
    const attempts = await Promise.all(
      Array.from({ length: 4 }, () => visitor().post("/api/report_contest.php", { report_id: report.id, key, text })),
    );
    expect(attempts.map((r) => r.status).toSorted()).toEqual([201, 409, 409, 409]);
    const appeal = (await env.DB.prepare(
      "SELECT a.id, a.by_notifier FROM appeals a JOIN moderation_decisions d ON d.id = a.decision_id WHERE d.report_id = ?",
    )
      .bind(report.id)
      .first<{ id: number; by_notifier: number }>())!;
    expect(appeal.by_notifier).toBe(1);

    const same = await asOperator(first, `/appeals/${appeal.id}/decide`, {
      form: { decision: "reverse", note: "Looked again." },
    });
    expect(same.status).toBe(403);
    const reversed = await asOperator(second, `/appeals/${appeal.id}/decide`, {
      form: { decision: "reverse", note: "The text is a threat after all." },
    });
    expect(reversed.status).toBe(200);
    const reopened = await env.DB.prepare("SELECT status FROM reports WHERE id = ?")
      .bind(report.id)
      .first<{ status: string }>();
    expect(reopened!.status).toBe("open");
    const mails = await env.DB.prepare(
      "SELECT kind, text FROM outgoing_mail WHERE to_address = ? AND kind <> 'activation' ORDER BY id",
    )
      .bind(await env.DB.prepare("SELECT email FROM reports WHERE id = ?").bind(report.id).first<string>("email"))
      .all<{ kind: string; text: string }>();
    expect(mails.results.map((m) => m.kind)).toEqual([
      "report",
      "notice_dismissed",
      "contest_receipt",
      "contest_outcome",
    ]);
    expect(mails.results.at(-1)!.text).toContain("The text is a threat after all.");
    expect(mails.results.at(-1)!.text).toContain("or to a court");
  });
});
