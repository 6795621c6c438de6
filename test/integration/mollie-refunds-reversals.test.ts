/**
 * Refunds and reversals on the provider's bad day (issue 38, docs/decisions/0054), against the
 * Mollie stand-in: a refund repeated into a 409 for its key still in flight, a refund whose answer
 * never comes, a refund canceled, a chargeback reversed, each told the way Mollie tells it (the
 * payment's webhook where Mollie calls it, the signed next-gen webhook events otherwise), with the
 * member's balance equal to their ledger after each.
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createHmac } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { databaseOf } from "../../src/server/db/database";
import { PROVIDER_CALLBACKS } from "../../src/server/edge/d1-session";
import { MOLLIE_EVENTS_PATH } from "../../src/server/api/payments";
import { MollieProvider } from "../../src/server/payments/mollie";
import { PaymentProviderError } from "../../src/server/payments/provider";
import { REFUND_SETTLE_AFTER_SECONDS, settleUnansweredRefunds } from "../../src/server/services/refunds";
import { creditsOf, type Member } from "../chat";
import { putSites } from "../fixtures";
import worker from "../../src/worker";
import { STAND_IN_KEY, STAND_IN_WEBHOOK_SECRET, type NextGenEvent } from "../mollie-stand-in";
import {
  call,
  control,
  deliverEvents,
  deliverWebhooks,
  directDebitForm,
  directDebitOrder,
  expectBooksBalanced,
  member,
  mollieEnv,
  mollieUrl,
  orderView,
  paidOrder,
  requests,
  sendEvent,
  setStatus,
  SITES,
  webhook,
} from "../mollie-app";

beforeAll(async () => {
  await putSites(...SITES);
});

type StandInRefund = { id: string; status: string; metadata: { refund_key?: string } | null };

const refundsAt = (paymentId: string) => control<StandInRefund[]>(`/payments/${paymentId}/refunds`);
const refund = (m: Member, orderId: number) =>
  call(m, "/api/refund.php", { method: "POST", json: { order_id: orderId } });
const refundPosts = async (paymentId: string) =>
  (await requests()).filter((r) => r.path === `/v2/payments/${paymentId}/refunds` && r.method === "POST");

/** The stand-in makes a released refund right after answering the release: wait for it (bounded). */
async function refundMade(paymentId: string): Promise<StandInRefund> {
  for (let i = 0; i < 50; i++) {
    const [made] = await refundsAt(paymentId);
    if (made) return made;
  }
  throw new Error("the released refund was never made");
}

const adjustmentsOf = async (orderId: number) =>
  (
    await env.DB.prepare(
      "SELECT kind, origin, provider_id, idempotency_key, status, credits, given_back_at FROM payment_adjustments WHERE order_id = ? ORDER BY id",
    )
      .bind(orderId)
      .all<{
        kind: string;
        origin: string;
        provider_id: string | null;
        idempotency_key: string | null;
        status: string;
        credits: number;
        given_back_at: number | null;
      }>()
  ).results;

/** The member's ledger rows of a kind for an order (ref order:<id>). */
const ledgerRows = async (m: Member, reason: string) =>
  (
    await env.DB.prepare("SELECT delta FROM credit_ledger WHERE user_id = ? AND reason = ?")
      .bind(m.userId, reason)
      .all<{ delta: number }>()
  ).results.map((r) => r.delta);

const directDebitStatus = async (m: Member) =>
  (await env.DB.prepare("SELECT status FROM direct_debit_accounts WHERE user_id = ?")
    .bind(m.userId)
    .first<{ status: string }>())!.status;

const clock = (now: number) => ({
  db: databaseOf(env.DB),
  provider: new MollieProvider(STAND_IN_KEY, mollieUrl),
  now,
});
const nowSeconds = () => Math.floor(Date.now() / 1000);

// The loops below run many deliveries and refunds through workerd and the stand-in one after another:
// more than vitest's 5 s on a busy machine.

/** Every undelivered next-gen event of a payment, each delivered `times` times at once. */
async function deliverEventsConcurrently(paymentId: string, times: number): Promise<NextGenEvent[]> {
  const all = await control<NextGenEvent[]>(`/payments/${paymentId}/events`);
  const statuses = await Promise.all(
    all.flatMap((event) => Array.from({ length: times }, async () => (await sendEvent(event)).status)),
  );
  expect(new Set(statuses)).toEqual(new Set([200]));
  return all;
}

/**
 * A member's paid order and their refund of it, asked while Mollie's Refunds API has a fault (a
 * stand-in control route of the payment): pending, the credits taken.
 */
/** Mollie is up again for this payment's refunds. */
const endOutage = (paymentId: string) => control(`/payments/${paymentId}/refund-outage`, { calls: 0 });

async function refundDuring(fault: "refund-outage" | "cut-next-refund") {
  const m = await member();
  const paid = await paidOrder(m);
  expect(await creditsOf(m)).toBe(50);
  // An outage answers every call 503, however often the request and the adapter try, until it ends (endOutage).
  await control(`/payments/${paid.paymentId}/${fault}`, fault === "refund-outage" ? { calls: 1000 } : {});
  const res = await refund(m, paid.id);
  // The request is pending, not refused: the member sees the refund under way.
  expect(res.status, await res.clone().text()).toBe(200);
  expect((await orderView(m, paid.id)).status).toBe("refunded");
  expect(await creditsOf(m)).toBe(0);
  return { m, paid };
}

describe("refunds: given back only when Mollie says failed or canceled", () => {
  it("a refund repeated into a 409 does not return the credits; when the first completes the member has none back and no double", async () => {
    const { m, paid } = await refundDuring("cut-next-refund");
    const posts = await refundPosts(paid.paymentId);
    expect(posts.length).toBeGreaterThanOrEqual(2);
    expect(new Set(posts.map((p) => p.idempotencyKey)).size).toBe(1);
    // The adapter reads Mollie's 409 as "still being processed", not as a refusal.
    const again = await new MollieProvider(STAND_IN_KEY, mollieUrl)
      .refund(paid.paymentId, {
        amount: 995,
        currency: "EUR",
        description: posts[0]!.body["description"] as string,
        idempotencyKey: posts[0]!.idempotencyKey!,
        refundKey: posts[0]!.idempotencyKey!,
      })
      .then(
        () => null,
        (e: PaymentProviderError) => e,
      );
    expect(again).toBeInstanceOf(PaymentProviderError);
    expect(again!.status).toBe(409);
    expect(again!.refused).toBe(false);
    const [pending] = await adjustmentsOf(paid.id);
    expect(pending).toMatchObject({ provider_id: null, status: "requested", given_back_at: null });
    await expectBooksBalanced(m);

    // The first request is made after all, once; then it completes.
    await control(`/payments/${paid.paymentId}/cut-refund/release`, {});
    const made = await refundMade(paid.paymentId);
    expect(await refundsAt(paid.paymentId)).toHaveLength(1);
    await control(`/payments/${paid.paymentId}/refunds/${made.id}/status`, { status: "refunded" });
    await Promise.all([
      deliverWebhooks(paid.paymentId),
      deliverEventsConcurrently(paid.paymentId, 4),
      ...Array.from({ length: 4 }, () => webhook(paid.paymentId)),
    ]);
    expect(await creditsOf(m)).toBe(0);
    expect((await orderView(m, paid.id)).status).toBe("refunded");
    expect(await adjustmentsOf(paid.id)).toMatchObject([
      { provider_id: made.id, status: "refunded", given_back_at: null },
    ]);
    expect(await ledgerRows(m, "refund")).toEqual([-50]);
    expect(await ledgerRows(m, "refund_undone")).toEqual([]);
    await expectBooksBalanced(m);
  }, 30_000);

  it("concurrent refund requests, the first cut off in flight: one refund at Mollie, the credits taken once and never returned", async () => {
    for (let round = 0; round < 3; round++) {
      const m = await member();
      const paid = await paidOrder(m);
      await control(`/payments/${paid.paymentId}/cut-next-refund`, {});
      const statuses = await Promise.all(Array.from({ length: 6 }, async () => (await refund(m, paid.id)).status));
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s !== 200).every((s) => s === 409)).toBe(true);
      expect(await creditsOf(m)).toBe(0);
      await control(`/payments/${paid.paymentId}/cut-refund/release`, {});
      const made = await refundMade(paid.paymentId);
      await control(`/payments/${paid.paymentId}/refunds/${made.id}/status`, { status: "refunded" });
      await Promise.all([deliverWebhooks(paid.paymentId), deliverEvents(paid.paymentId)]);
      expect(await refundsAt(paid.paymentId)).toHaveLength(1);
      expect(await creditsOf(m)).toBe(0);
      expect(await ledgerRows(m, "refund_undone")).toEqual([]);
      await expectBooksBalanced(m);
    }
  }, 30_000);

  it("a refund whose answer never comes (Mollie down) stays pending; the clock work asks again with the same key and the webhook settles it", async () => {
    const { m, paid } = await refundDuring("refund-outage");
    expect(await refundsAt(paid.paymentId)).toHaveLength(0);
    const [pending] = await adjustmentsOf(paid.id);
    expect(pending).toMatchObject({ provider_id: null, status: "requested", given_back_at: null });
    await expectBooksBalanced(m);

    await endOutage(paid.paymentId);
    // Too soon for the clock work: the request may still be on its way.
    expect(await settleUnansweredRefunds(clock(nowSeconds()))).toMatchObject({ answered: 0, pending: 0 });
    const later = nowSeconds() + REFUND_SETTLE_AFTER_SECONDS + 1;
    expect(await settleUnansweredRefunds(clock(later))).toMatchObject({ answered: 1, givenBack: 0 });
    const [made] = await refundsAt(paid.paymentId);
    expect(made!.metadata?.refund_key).toBe(pending!.idempotency_key);
    const posts = await refundPosts(paid.paymentId);
    expect(posts.at(-1)!.idempotencyKey).toBe(pending!.idempotency_key);
    // The repeat carries the very parameters of the first request (Mollie refuses a key with others).
    expect(new Set(posts.map((p) => JSON.stringify(p.body))).size).toBe(1);
    expect(await adjustmentsOf(paid.id)).toMatchObject([{ provider_id: made!.id, status: "pending" }]);
    // Settled: the next rounds leave it alone, and no second refund is made.
    expect(await settleUnansweredRefunds(clock(later + 3600))).toMatchObject({ answered: 0, pending: 0 });
    expect(await refundsAt(paid.paymentId)).toHaveLength(1);
    await control(`/payments/${paid.paymentId}/refunds/${made!.id}/status`, { status: "refunded" });
    await deliverWebhooks(paid.paymentId);
    expect(await adjustmentsOf(paid.id)).toMatchObject([{ status: "refunded", given_back_at: null }]);
    expect(await creditsOf(m)).toBe(0);
    await expectBooksBalanced(m);
  });

  it("the hourly cron runs that clock work", async () => {
    const { m, paid } = await refundDuring("refund-outage");
    expect(await refundsAt(paid.paymentId)).toHaveLength(0);
    await endOutage(paid.paymentId);
    await env.DB.prepare("UPDATE payment_adjustments SET created_at = created_at - ? WHERE order_id = ?")
      .bind(REFUND_SETTLE_AFTER_SECONDS + 1, paid.id)
      .run();
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "41 * * * *" }), mollieEnv, ctx);
    await waitOnExecutionContext(ctx);
    expect(await refundsAt(paid.paymentId)).toHaveLength(1);
    expect(await adjustmentsOf(paid.id)).toMatchObject([{ status: "pending", given_back_at: null }]);
    expect(await creditsOf(m)).toBe(0);
    await expectBooksBalanced(m);
  });

  it("a pending refund the clock finds failed at Mollie gives its credits back, once", async () => {
    // Cut off in flight and repeated into 409s: pending, though Mollie makes it.
    const { m, paid } = await refundDuring("cut-next-refund");
    await control(`/payments/${paid.paymentId}/cut-refund/release`, {});
    const made = await refundMade(paid.paymentId);
    await control(`/payments/${paid.paymentId}/refunds/${made.id}/status`, { status: "failed" });
    const later = nowSeconds() + REFUND_SETTLE_AFTER_SECONDS + 1;
    const rounds = await Promise.all(Array.from({ length: 4 }, () => settleUnansweredRefunds(clock(later))));
    expect(rounds.reduce((n, r) => n + r.givenBack, 0)).toBe(1);
    // The payment's webhook for the failure comes as well: nothing more.
    await Promise.all([deliverWebhooks(paid.paymentId), deliverEvents(paid.paymentId)]);
    expect(await creditsOf(m)).toBe(50);
    expect((await orderView(m, paid.id)).status).toBe("paid");
    expect(await ledgerRows(m, "refund_undone")).toEqual([50]);
    await expectBooksBalanced(m);
  });

  it("a refund canceled in Mollie's dashboard returns its credits once, told only by the next-gen webhook", async () => {
    const m = await member();
    const paid = await paidOrder(m);
    expect((await refund(m, paid.id)).status).toBe(200);
    expect(await creditsOf(m)).toBe(0);
    const [made] = await refundsAt(paid.paymentId);
    await deliverEvents(paid.paymentId);
    await control(`/payments/${paid.paymentId}/refunds/${made!.id}/status`, { status: "canceled" });
    // Mollie does not call the payment's webhook for a canceled refund (https://docs.mollie.com/overview/webhooks).
    expect(await deliverWebhooks(paid.paymentId)).toBe(0);
    expect(await creditsOf(m)).toBe(0);
    const events = await deliverEventsConcurrently(paid.paymentId, 8);
    expect(events.map((e) => e.type)).toContain("refund.canceled");
    expect(await creditsOf(m)).toBe(50);
    expect((await orderView(m, paid.id)).status).toBe("paid");
    expect(await adjustmentsOf(paid.id)).toMatchObject([{ status: "canceled", given_back_at: expect.any(Number) }]);
    expect(await ledgerRows(m, "refund_undone")).toEqual([50]);
    await expectBooksBalanced(m);
  });

  it("a refund made and then canceled in Mollie's dashboard gives back what it took, once", async () => {
    const m = await member();
    const paid = await paidOrder(m, { bundle_id: 2, method: "creditcard" });
    const made = await control<{ id: string }>(`/payments/${paid.paymentId}/dashboard-refund`, { amount: 798 });
    await deliverWebhooks(paid.paymentId);
    // 7.98 of 19.95 is 40 % of the 125 credits.
    expect(await creditsOf(m)).toBe(75);
    await control(`/payments/${paid.paymentId}/refunds/${made.id}/status`, { status: "canceled" });
    expect(await deliverWebhooks(paid.paymentId)).toBe(0);
    await deliverEventsConcurrently(paid.paymentId, 6);
    expect(await creditsOf(m)).toBe(125);
    expect(await ledgerRows(m, "refund_undone")).toEqual([50]);
    await expectBooksBalanced(m);
  });
});

describe("Mollie's next-gen webhook", () => {
  it("is one of the provider callbacks that read and write the primary", () => {
    expect(PROVIDER_CALLBACKS).toContain(MOLLIE_EVENTS_PATH);
  });

  it("a reversed chargeback gives the credits back once and lifts the direct-debit block, however often and at once the event comes", async () => {
    for (let round = 0; round < 2; round++) {
      const m = await member();
      const debit = await directDebitOrder(m);
      await setStatus(debit.paymentId, "paid");
      await deliverWebhooks(debit.paymentId);
      const chargeback = await control<{ id: string }>(`/payments/${debit.paymentId}/chargebacks`, {});
      await deliverWebhooks(debit.paymentId);
      expect(await creditsOf(m)).toBe(0);
      expect(await directDebitStatus(m)).toBe("blocked");
      await control(`/payments/${debit.paymentId}/chargebacks/${chargeback.id}/reverse`, {});
      // No call of the payment's webhook: the reversal is told by the next-gen event alone.
      expect(await deliverWebhooks(debit.paymentId)).toBe(0);
      const events = await deliverEventsConcurrently(debit.paymentId, 10);
      const reversed = events.find((e) => e.type === "chargeback.reversed")!;
      expect(await creditsOf(m)).toBe(50);
      expect(await ledgerRows(m, "reversal_undone")).toEqual([50]);
      expect((await orderView(m, debit.id)).status).toBe("paid");
      expect(await directDebitStatus(m)).toBe("active");
      const stored = await env.DB.prepare(
        "SELECT COUNT(*) AS n, MIN(handled_at) IS NOT NULL AS handled FROM provider_events WHERE event_id = ?",
      )
        .bind(JSON.parse(reversed.body).id)
        .first<{ n: number; handled: number }>();
      expect(stored).toEqual({ n: 1, handled: 1 });
      await expectBooksBalanced(m);
      // A delivery again later is answered at once and changes nothing.
      expect((await sendEvent(reversed)).status).toBe(200);
      expect(await creditsOf(m)).toBe(50);
      expect((await call(m, "/api/directdebit.php", { method: "POST", json: directDebitForm(m) })).status).toBe(200);
    }
  }, 30_000);

  it("a simple payload (only the entity's id) is matched by the chargeback the app knows", async () => {
    const m = await member();
    const paid = await paidOrder(m, { bundle_id: 1, method: "creditcard" });
    const chargeback = await control<{ id: string }>(`/payments/${paid.paymentId}/chargebacks`, {});
    await deliverWebhooks(paid.paymentId);
    expect(await creditsOf(m)).toBe(0);
    await control(`/payments/${paid.paymentId}/chargebacks/${chargeback.id}/reverse`, {});
    const body = JSON.stringify({
      resource: "event",
      id: `event_simple${paid.id}`,
      type: "chargeback.reversed",
      entityId: chargeback.id,
      createdAt: new Date().toISOString(),
      _links: {},
    });
    const signature = createHmac("sha256", STAND_IN_WEBHOOK_SECRET).update(body).digest("hex");
    expect((await sendEvent({ contentType: "application/json", signature, body })).status).toBe(200);
    expect(await creditsOf(m)).toBe(50);
    await expectBooksBalanced(m);
  });

  it("a bad or missing signature is refused and changes nothing; the genuine delivery still counts", async () => {
    const m = await member();
    const paid = await paidOrder(m, { bundle_id: 1, method: "creditcard" });
    const chargeback = await control<{ id: string }>(`/payments/${paid.paymentId}/chargebacks`, {});
    await deliverWebhooks(paid.paymentId);
    await control(`/payments/${paid.paymentId}/chargebacks/${chargeback.id}/reverse`, {});
    const events = await control<NextGenEvent[]>(`/payments/${paid.paymentId}/events`);
    const reversed = events.find((e) => e.type === "chargeback.reversed")!;
    const hmac = (secret: string, body: string) => createHmac("sha256", secret).update(body).digest("hex");
    const tampered = reversed.body.replace('"chargeback.reversed"', '"chargeback.reversed" ');
    const forgeries: [Pick<NextGenEvent, "contentType" | "signature" | "body">, string | null][] = [
      [reversed, null],
      [reversed, ""],
      [reversed, hmac("another secret", reversed.body)],
      [reversed, reversed.signature.slice(0, 63)],
      [reversed, `${reversed.signature.slice(0, 63)}${reversed.signature.at(-1) === "0" ? "1" : "0"}`],
      [{ ...reversed, body: tampered }, reversed.signature],
      [reversed, Buffer.from(reversed.signature, "hex").toString("base64")],
    ];
    for (const [event, signature] of forgeries) {
      const res = await sendEvent(event, mollieEnv, signature);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: "invalid_signature" });
    }
    // Without a configured secret nothing is believed, a valid signature included.
    expect((await sendEvent(reversed, { ...mollieEnv, MOLLIE_WEBHOOK_SECRET: "" })).status).toBe(401);
    // Signed but not an event: a clear 400.
    const junk = "{not json";
    expect(
      (await sendEvent({ contentType: "application/json", body: junk, signature: hmac(STAND_IN_WEBHOOK_SECRET, junk) }))
        .status,
    ).toBe(400);
    expect(await creditsOf(m)).toBe(0);
    const stored = await env.DB.prepare("SELECT COUNT(*) AS n FROM provider_events WHERE event_id = ?")
      .bind(JSON.parse(reversed.body).id)
      .first<{ n: number }>();
    expect(stored!.n).toBe(0);
    await expectBooksBalanced(m);
    // As Mollie's client accepts it, the signature may come prefixed "sha256=".
    expect((await sendEvent(reversed, mollieEnv, `sha256=${reversed.signature}`)).status).toBe(200);
    expect(await creditsOf(m)).toBe(50);
    await expectBooksBalanced(m);
  });
});
