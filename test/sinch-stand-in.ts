/**
 * A stand-in of the SMS provider's HTTP API on loopback: POST /v1/messages { to, text } with a bearer
 * key answers 201 { id }; GET /_stand-in/messages lists what it received.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export const SMS_STAND_IN_KEY = "sms-stand-in-key";

export function createSmsStandIn() {
  const received: { to: string; text: string; id: string }[] = [];
  const server = createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    res.setHeader("content-type", "application/json");
    if (req.url === "/_stand-in/messages") return res.end(JSON.stringify(received));
    if (req.url !== "/v1/messages" || req.method !== "POST") return res.writeHead(404).end(JSON.stringify({ error: "not_found" }));
    if (req.headers.authorization !== `Bearer ${SMS_STAND_IN_KEY}`) return res.writeHead(401).end(JSON.stringify({ error: "unauthorized" }));
    const body = JSON.parse(raw || "{}") as { to?: unknown; text?: unknown };
    if (typeof body.to !== "string" || typeof body.text !== "string") return res.writeHead(422).end(JSON.stringify({ error: "invalid" }));
    const message = { to: body.to, text: body.text, id: `sms_${received.length + 1}` };
    received.push(message);
    res.writeHead(201).end(JSON.stringify({ id: message.id }));
  });
  return {
    async start(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
