/**
 * A stand-in of Mollie's v2 API (https://docs.mollie.com/reference) on loopback, for the adapter's
 * tests: payments (with Idempotency-Key), customers, mandates left by paid first payments, and
 * refunds, answering the documented request and response shapes. Started by vitest's global setup;
 * the tests reach it from workerd at the URL it provides as `mollieUrl`. Two extra routes under
 * /_stand-in let a test play the customer (set a payment's status) and read what the app sent.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export const STAND_IN_KEY = "test_standinkey0000000000000000000";

type Amount = { currency: string; value: string };
type Payment = {
  resource: "payment";
  id: string;
  mode: "test";
  status: string;
  amount: Amount;
  description: string;
  method: string | null;
  metadata: unknown;
  locale: string | null;
  sequenceType: string;
  customerId: string | null;
  mandateId: string | null;
  redirectUrl: string | null;
  webhookUrl: string | null;
  createdAt: string;
  amountRefunded: Amount;
  amountChargedBack?: Amount;
  _links: Record<string, { href: string; type: string }>;
};
type Logged = { method: string; path: string; idempotencyKey: string | null; body: unknown };

const ids = { n: 0 };
const newId = (prefix: string) => `${prefix}_${(++ids.n).toString(36).padStart(4, "0")}${Math.random().toString(36).slice(2, 8)}`;
const AMOUNT = /^\d+\.\d{2}$/;

function problem(res: ServerResponse, status: number, title: string, detail: string, field?: string) {
  res.writeHead(status, { "content-type": "application/hal+json" });
  res.end(JSON.stringify({ status, title, detail, ...(field ? { field } : {}), _links: { documentation: { href: "https://docs.mollie.com/overview/handling-errors", type: "text/html" } } }));
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/hal+json" });
  res.end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let raw = "";
  for await (const chunk of req) raw += chunk;
  return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
}

export function createMollieStandIn() {
  const payments = new Map<string, Payment>();
  const byIdempotencyKey = new Map<string, string>();
  const customers = new Map<string, { id: string; name: string; email: string }>();
  const mandates = new Map<string, { resource: "mandate"; id: string; status: string; method: string; customerId: string }[]>();
  const log: Logged[] = [];
  let origin = "";

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://stand-in");
    const path = url.pathname;
    const body = req.method === "POST" ? await readJson(req).catch(() => null) : null;
    if (body === null && req.method === "POST") return problem(res, 400, "Bad Request", "The request body is not valid JSON");

    if (path.startsWith("/_stand-in/")) {
      const status = /^\/_stand-in\/payments\/([^/]+)\/status$/.exec(path);
      if (status && req.method === "POST") {
        const payment = payments.get(status[1]!);
        if (!payment) return problem(res, 404, "Not Found", "no such payment");
        if (body!["chargeback"] === true) {
          payment.amountChargedBack = payment.amount;
          return send(res, 200, payment);
        }
        payment.status = String(body!["status"]);
        if (payment.status !== "open") delete payment._links["checkout"];
        if (payment.status === "paid" && payment.sequenceType === "first" && payment.customerId) {
          const mandate = { resource: "mandate" as const, id: newId("mdt"), status: "valid", method: payment.method === "ideal" ? "directdebit" : (payment.method ?? "creditcard"), customerId: payment.customerId };
          mandates.set(payment.customerId, [...(mandates.get(payment.customerId) ?? []), mandate]);
          payment.mandateId = mandate.id;
        }
        return send(res, 200, payment);
      }
      if (path === "/_stand-in/requests") return send(res, 200, log);
      return problem(res, 404, "Not Found", "unknown control route");
    }

    log.push({ method: req.method ?? "GET", path, idempotencyKey: (req.headers["idempotency-key"] as string | undefined) ?? null, body });
    if (req.headers.authorization !== `Bearer ${STAND_IN_KEY}`) return problem(res, 401, "Unauthorized Request", "Missing authentication, or failed to authenticate");

    if (path === "/v2/payments" && req.method === "POST") {
      const key = req.headers["idempotency-key"] as string | undefined;
      if (key && byIdempotencyKey.has(key)) return send(res, 201, payments.get(byIdempotencyKey.get(key)!));
      const amount = body!["amount"] as Amount | undefined;
      if (!amount || typeof amount.currency !== "string" || typeof amount.value !== "string" || !AMOUNT.test(amount.value)) return problem(res, 422, "Unprocessable Entity", "The amount is invalid", "amount");
      if (typeof body!["description"] !== "string") return problem(res, 422, "Unprocessable Entity", "The description is invalid", "description");
      const sequenceType = (body!["sequenceType"] as string | undefined) ?? "oneoff";
      if (sequenceType !== "recurring" && typeof body!["redirectUrl"] !== "string") return problem(res, 422, "Unprocessable Entity", "The redirect URL is invalid", "redirectUrl");
      const customerId = (body!["customerId"] as string | undefined) ?? null;
      if (sequenceType !== "oneoff" && (!customerId || !customers.has(customerId))) return problem(res, 422, "Unprocessable Entity", "The customer id is invalid", "customerId");
      if (sequenceType === "recurring" && !(mandates.get(customerId!) ?? []).some((m) => m.id === body!["mandateId"] && m.status === "valid")) {
        return problem(res, 422, "Unprocessable Entity", "The mandate is invalid", "mandateId");
      }
      const id = newId("tr");
      const payment: Payment = {
        resource: "payment",
        id,
        mode: "test",
        status: sequenceType === "recurring" ? "pending" : "open",
        amount,
        description: body!["description"] as string,
        method: (body!["method"] as string | undefined) ?? null,
        metadata: body!["metadata"] ?? null,
        locale: (body!["locale"] as string | undefined) ?? null,
        sequenceType,
        customerId,
        mandateId: (body!["mandateId"] as string | undefined) ?? null,
        redirectUrl: (body!["redirectUrl"] as string | undefined) ?? null,
        webhookUrl: (body!["webhookUrl"] as string | undefined) ?? null,
        createdAt: new Date().toISOString(),
        amountRefunded: { currency: amount.currency, value: "0.00" },
        _links: {
          self: { href: `${origin}/v2/payments/${id}`, type: "application/hal+json" },
          ...(sequenceType === "recurring" ? {} : { checkout: { href: `https://www.mollie.com/checkout/select-method/${id.slice(3)}`, type: "text/html" } }),
        },
      };
      payments.set(id, payment);
      if (key) byIdempotencyKey.set(key, id);
      return send(res, 201, payment);
    }
    const one = /^\/v2\/payments\/([^/]+)$/.exec(path);
    if (one && req.method === "GET") {
      const payment = payments.get(one[1]!);
      return payment ? send(res, 200, payment) : problem(res, 404, "Not Found", `No payment exists with token ${one[1]}.`);
    }
    const refunds = /^\/v2\/payments\/([^/]+)\/refunds$/.exec(path);
    if (refunds && req.method === "POST") {
      const payment = payments.get(refunds[1]!);
      if (!payment) return problem(res, 404, "Not Found", `No payment exists with token ${refunds[1]}.`);
      const amount = body!["amount"] as Amount | undefined;
      if (!amount || !AMOUNT.test(amount.value) || amount.currency !== payment.amount.currency) return problem(res, 422, "Unprocessable Entity", "The amount is invalid", "amount");
      const left = Number(payment.amount.value) - Number(payment.amountRefunded.value);
      if (payment.status !== "paid" || Number(amount.value) > left + 1e-9) return problem(res, 422, "Unprocessable Entity", "The payment cannot be refunded", "amount");
      payment.amountRefunded = { currency: amount.currency, value: (Number(payment.amountRefunded.value) + Number(amount.value)).toFixed(2) };
      return send(res, 201, { resource: "refund", id: newId("re"), amount, status: "pending", paymentId: payment.id, description: body!["description"] ?? "", createdAt: new Date().toISOString() });
    }
    if (path === "/v2/customers" && req.method === "POST") {
      const customer = { resource: "customer", id: newId("cst"), name: String(body!["name"] ?? ""), email: String(body!["email"] ?? ""), locale: body!["locale"] ?? null };
      customers.set(customer.id, customer);
      return send(res, 201, customer);
    }
    const customerMandates = /^\/v2\/customers\/([^/]+)\/mandates$/.exec(path);
    if (customerMandates && req.method === "POST") {
      const customerId = customerMandates[1]!;
      if (!customers.has(customerId)) return problem(res, 404, "Not Found", "No customer exists with token");
      if (body!["method"] !== "directdebit" || typeof body!["consumerName"] !== "string" || !/^[A-Z]{2}[0-9]{2}[A-Z0-9]{10,30}$/.test(String(body!["consumerAccount"]))) {
        return problem(res, 422, "Unprocessable Entity", "The mandate details are invalid", "consumerAccount");
      }
      const mandate = { resource: "mandate" as const, id: newId("mdt"), status: "valid", method: "directdebit", customerId };
      mandates.set(customerId, [...(mandates.get(customerId) ?? []), mandate]);
      return send(res, 201, mandate);
    }
    if (customerMandates && req.method === "GET") {
      if (!customers.has(customerMandates[1]!)) return problem(res, 404, "Not Found", "No customer exists with token");
      const list = mandates.get(customerMandates[1]!) ?? [];
      return send(res, 200, { count: list.length, _embedded: { mandates: list }, _links: {} });
    }
    return problem(res, 404, "Not Found", "unknown route");
  });

  return {
    async start(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      return origin;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
