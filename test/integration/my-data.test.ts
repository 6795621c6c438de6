/**
 * The data export (GET /api/my-data.php) holds everything kept about the member, and nothing private
 * of others (docs/decisions/0050): not what the other member paid for their messages, not a liker the
 * member can no longer see.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { ChatSocket, chatMember, clientId } from "../chat";
import { operator } from "../console";
import { putSites, site } from "../fixtures";
import { json } from "../http";

const ORIGIN = "http://my-data.test";

beforeAll(async () => {
  await putSites(site("my-data.test", { message_credits: 5, free_conversations: 0, free_messages: 0 }));
});

type Archive = {
  messages: { sender_id: number; message_id: number; credits_charged?: number }[];
  chat_charges: { message_id: number; credits: number }[];
  likes: { given: { profile_id: number }[]; received: { profile_id: number }[] };
  decisions: { id: number; outcome: string; ground: string; facts: string; restricts: boolean }[];
  appeals: { decision_id: number; text: string; status: string; note: string | null }[];
  verifications: { status: string; reason: string | null; selfie_held: boolean }[];
  reports: { subject: string; description: string }[];
  sessions: { device: string | null }[];
};

describe("the data export", () => {
  it("leaves out the other member's charges and likers now invisible; holds decisions, appeals, verifications, reports", async () => {
    const anna = await chatMember(ORIGIN, { credits: 100, name: "Anna" });
    const ben = await chatMember(ORIGIN, { credits: 100, name: "Ben" });
    const hidden = await chatMember(ORIGIN, { name: "Hidden" });
    const seen = await chatMember(ORIGIN, { name: "Seen" });
    // Both write a paid message.
    for (const [from, to, body] of [
      [anna, ben, "hi Ben"],
      [ben, anna, "hi Anna"],
    ] as const) {
      const socket = await ChatSocket.open(from, to.id);
      const id = clientId();
      socket.sendText(id, body);
      expect((await socket.reply(id)).type).toBe("ack");
      socket.close();
    }
    // Two likers; one then goes invisible.
    for (const liker of [hidden, seen])
      await env.DB.prepare("INSERT INTO likes (liker_id, liked_id) VALUES (?, ?)").bind(liker.id, anna.id).run();
    expect((await hidden.browser.put("/api/user.php", { invisible: true })).status).toBe(200);
    // A decision about Anna, her appeal and its outcome, a verification request, a report she filed.
    const moderator = await operator("moderator");
    const operatorId = (await env.DB.prepare("SELECT id FROM operators WHERE email = ?")
      .bind(moderator)
      .first<{ id: number }>())!.id;
    const now = Math.floor(Date.now() / 1000);
    const decision = (await env.DB.prepare(
      "INSERT INTO moderation_decisions (user_id, profile_id, source, outcome, ground, facts, restricts, language, operator_id, created_at, appeal_until) VALUES (?, ?, 'report', 'remove_message', 'scam', 'asked for bank details', 1, 'en', ?, ?, ?) RETURNING id",
    )
      .bind(anna.userId, anna.id, operatorId, now, now + 180 * 86_400)
      .first<{ id: number }>())!.id;
    await env.DB.prepare(
      "INSERT INTO appeals (decision_id, user_id, text, status, created_at, decided_by, decided_at, note) VALUES (?, ?, 'it was a joke', 'upheld', ?, ?, ?, 'the message stays removed')",
    )
      .bind(decision, anna.userId, now, operatorId, now)
      .run();
    await env.DB.prepare(
      "INSERT INTO verifications (profile_id, site_domain, pose, selfie_key, status, reason, asked_at, decided_at, decided_by) VALUES (?, 'my-data.test', 'thumbs_up', 'selfie/abc', 'rejected', 'face_hidden', ?, ?, ?)",
    )
      .bind(anna.id, now, now, moderator)
      .run();
    await env.DB.prepare(
      "INSERT INTO reports (reporter_key, reporter_user_id, email, subject, description, target_key, profile_id, site_domain, language, client_address) VALUES (?, ?, 'a@example.com', 'scam', 'Ben asks for money', ?, ?, 'my-data.test', 'en', '127.0.0.1')",
    )
      .bind(`user:${anna.userId}`, anna.userId, `profile:${ben.id}`, ben.id)
      .run();

    const archive = await json<Archive>(await anna.browser.fetch("/api/my-data.php"));
    const own = archive.messages.filter((m) => m.sender_id === anna.id);
    const theirs = archive.messages.filter((m) => m.sender_id === ben.id);
    expect(own).toHaveLength(1);
    expect(theirs).toHaveLength(1);
    expect(own[0]!.credits_charged).toBe(5);
    expect(theirs[0]).not.toHaveProperty("credits_charged");
    expect(archive.chat_charges).toEqual([expect.objectContaining({ message_id: own[0]!.message_id, credits: 5 })]);
    expect(archive.likes.received.map((l) => l.profile_id)).toEqual([seen.id]);
    expect(archive.decisions).toEqual([
      expect.objectContaining({
        id: decision,
        outcome: "remove_message",
        ground: "scam",
        facts: "asked for bank details",
        restricts: true,
      }),
    ]);
    expect(archive.appeals).toEqual([
      expect.objectContaining({
        decision_id: decision,
        text: "it was a joke",
        status: "upheld",
        note: "the message stays removed",
      }),
    ]);
    expect(archive.verifications).toEqual([
      expect.objectContaining({ status: "rejected", reason: "face_hidden", selfie_held: true }),
    ]);
    expect(archive.reports).toEqual([expect.objectContaining({ subject: "scam", description: "Ben asks for money" })]);
    const text = JSON.stringify(archive);
    expect(text).not.toContain("selfie/abc");
    expect(text).not.toContain(moderator);

    // Ben's export keeps his own charge and hides Anna's.
    const bens = await json<Archive>(await ben.browser.fetch("/api/my-data.php"));
    expect(bens.messages.find((m) => m.sender_id === ben.id)!.credits_charged).toBe(5);
    expect(bens.messages.find((m) => m.sender_id === anna.id)).not.toHaveProperty("credits_charged");
    // The liker who went invisible still sees her own like in her export.
    const hiddens = await json<Archive>(await hidden.browser.fetch("/api/my-data.php"));
    expect(hiddens.likes.given.map((l) => l.profile_id)).toEqual([anna.id]);
  });
});
