/**
 * The chat benchmark's baseline: a bare Durable Object echo over WebSockets, served by its own
 * `wrangler dev` (bench/wrangler.echo.toml). The Worker hands an upgrade to the room named by
 * ?room=, as the app's Worker hands a chat socket to its conversation's object; the room accepts
 * sockets with the hibernation API and sends each message, unchanged, to every other socket.
 */
import { DurableObject } from "cloudflare:workers";

type EchoEnv = { ROOMS: DurableObjectNamespace<EchoRoom> };

export class EchoRoom extends DurableObject<EchoEnv> {
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket")
      return new Response("Expected a WebSocket", { status: 426 });
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server);
    return new Response(null, { status: 101, webSocket: client });
  }

  override async webSocketMessage(ws: WebSocket, data: string | ArrayBuffer): Promise<void> {
    for (const other of this.ctx.getWebSockets()) {
      if (other === ws) continue;
      try {
        other.send(data);
      } catch {
        // closing
      }
    }
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, "closing");
    } catch {
      // already closed
    }
  }
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname !== "/socket") return new Response("echo");
    return env.ROOMS.getByName(url.searchParams.get("room") ?? "bench").fetch(request);
  },
} satisfies ExportedHandler<EchoEnv>;
