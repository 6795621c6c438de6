/** What the Worker does for every WebSocket a page opens to a Durable Object (a conversation, a member channel). */
import type { Context } from "hono";
import type { AppEnv } from "../request-context";
import { AppError } from "../errors";

/**
 * A WebSocket is not covered by the CSRF check of state-changing calls: only this site's pages may
 * open one, and only as an upgrade.
 */
export function requireSocketUpgrade(c: Context<AppEnv>): void {
  const origin = c.req.header("origin");
  if (!origin || origin !== new URL(c.req.url).origin)
    throw new AppError({ status: 403, code: "csrf", key: "errors.csrf" });
  if (c.req.header("upgrade")?.toLowerCase() !== "websocket")
    throw new AppError({ status: 426, code: "upgrade_required", key: "errors.invalid_body" });
}

/** Hand the upgrade to the object and pass its answer on: the object's headers are immutable, and the edge middleware adds its own to a copy. */
export async function objectHandshake(
  object: { fetch(request: Request): Promise<Response> },
  forwarded: Request,
): Promise<Response> {
  const handshake = await object.fetch(forwarded);
  return new Response(handshake.body, {
    status: handshake.status,
    headers: new Headers(handshake.headers),
    webSocket: handshake.webSocket,
  });
}
