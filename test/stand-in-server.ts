/**
 * What every loopback stand-in of a provider (Mollie, Resend, SES, Sinch, a push service) shares:
 * it listens on a free port of 127.0.0.1 only, reads a request's body whole and answers JSON.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** Start and stop for a stand-in's server; `started` learns its origin (for the links its answers carry). */
export function onLoopback(server: Server, started: (origin: string) => void = () => undefined) {
  return {
    async start(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      started(origin);
      return origin;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A request's body as text. */
export async function bodyText(req: IncomingMessage): Promise<string> {
  let raw = "";
  for await (const chunk of req) raw += chunk;
  return raw;
}

/** A JSON answer, with any headers the provider adds. */
export function answerJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}
