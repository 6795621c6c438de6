import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { databaseOf } from "../../src/server/db/database";
import { takeBackStatements, undoRefundStatements } from "../../src/server/db/orders";
import { chatMember } from "../chat";
import { putSites, site } from "../fixtures";
import type { Statement } from "../../src/server/db/audit-log";

const DOMAIN = "premium-refund.test";
const ORIGIN = `http://${DOMAIN}`;
const db = databaseOf(env.DB);

/** A premium member with credited orders of 50 credits for 9.95 each, the credits on their balance and ledger. */
async function premiumMember(orders: number) {
  await putSites(site(DOMAIN));
  const member = await chatMember(ORIGIN, { paid: true });
  const ids: number[] = [];
  for (let i = 0; i < orders; i++)
    ids.push(
      (await env.DB.prepare(
        "INSERT INTO orders (user_id, site_domain, bundle_id, credits, amount_cents, currency, payment_method, country, status, credited_at) VALUES (?, ?, 1, 50, 995, 'EUR', 'ideal', 'NL', 'paid', unixepoch()) RETURNING id",
      )
        .bind(member.userId, DOMAIN)
        .first<{ id: number }>())!.id,
    );
  await env.DB.batch([
    env.DB.prepare("UPDATE users SET credits = ? WHERE id = ?").bind(50 * orders, member.userId),
    env.DB.prepare("INSERT INTO credit_ledger (user_id, delta, reason) VALUES (?, ?, 'bonus')").bind(
      member.userId,
      50 * orders,
    ),
  ]);
  return { member, ids };
}

const premium = async (userId: number) =>
  (await env.DB.prepare("SELECT paid_user FROM users WHERE id = ?").bind(userId).first<{ paid_user: number }>())!
    .paid_user;
const run = (statements: readonly Statement[]) => db.batch(statements as unknown as [Statement, ...Statement[]]);
const now = () => Math.floor(Date.now() / 1000);
/** Take back `credits` of the member's order `id` for a refund of `cents`, in one batch. */
const refund = (userId: number, id: number, credits: number, cents: number) =>
  run(takeBackStatements(db, { id, userId }, { credits, cents, reason: "refund", now: now() }));

describe("premium and refunds", { timeout: 30_000 }, () => {
  it("premium ends with the full refund of the last order that gave it, and comes back when the refund is refused", async () => {
    const full = await premiumMember(1);
    const order = { id: full.ids[0]!, userId: full.member.userId };
    await refund(order.userId, order.id, 50, 995);
    expect(await premium(full.member.userId)).toBe(0);
    await run(undoRefundStatements(db, order, 50, now()));
    expect(await premium(full.member.userId)).toBe(1);

    // A part refund leaves it.
    const part = await premiumMember(1);
    await refund(part.member.userId, part.ids[0]!, 15, 298);
    expect(await premium(part.member.userId)).toBe(1);

    // Another order still paid keeps it.
    const two = await premiumMember(2);
    await refund(two.member.userId, two.ids[0]!, 50, 995);
    expect(await premium(two.member.userId)).toBe(1);

    // A take-back refused in its batch (the credits were spent) changes nothing, premium included.
    const spent = await premiumMember(1);
    await env.DB.batch([
      env.DB.prepare("UPDATE users SET credits = 0 WHERE id = ?").bind(spent.member.userId),
      env.DB.prepare("INSERT INTO credit_ledger (user_id, delta, reason) VALUES (?, -50, 'bonus')").bind(
        spent.member.userId,
      ),
    ]);
    await refund(spent.member.userId, spent.ids[0]!, 50, 995);
    expect(await premium(spent.member.userId)).toBe(1);
  });
});
