import { env } from "cloudflare:workers";
import type { ServerFrame } from "../src/shared/chat";
import type { User } from "../src/shared/api";
import { birthDateForAge } from "./fixtures";
import { Browser, json } from "./http";

let counter = 0;

export type Member = { browser: Browser; user: User; id: number; userId: number };

/**
 * A member signed up and logged in on `origin`, with the account state a test asks for (signup
 * makes an unconfirmed account with the site's signup credits; chat tests mostly want neither).
 */
export async function chatMember(
  origin: string,
  options: { status?: string; credits?: number; paid?: boolean; name?: string } = {},
): Promise<Member> {
  counter++;
  const browser = new Browser(origin);
  browser.cookies.set("locale", "en");
  const tag = `${options.name ?? "chat"}${counter}${Math.random().toString(36).slice(2, 7)}`.slice(0, 24);
  const res = await browser.post("/api/signup.php", {
    email: `${tag}@example.com`,
    username: tag,
    password: "a good password",
    date_of_birth: birthDateForAge(30),
    gender: counter % 2 ? "male" : "female",
    terms: true,
  });
  if (res.status !== 201 && res.status !== 200) throw new Error(`signup failed: ${res.status} ${await res.text()}`);
  const { user } = await json<{ user: User }>(res);
  const userId = (await env.DB.prepare("SELECT user_id FROM profiles WHERE id = ?")
    .bind(user.profile.id)
    .first<{ user_id: number }>())!.user_id;
  await env.DB.prepare("UPDATE users SET status = ?, credits = ?, paid_user = ? WHERE id = ?")
    .bind(options.status ?? "active", options.credits ?? 0, options.paid ? 1 : 0, userId)
    .run();
  if (options.name)
    await env.DB.prepare("UPDATE profiles SET name = ? WHERE id = ?").bind(options.name, user.profile.id).run();
  return { browser, user, id: user.profile.id, userId };
}

export async function creditsOf(member: Member): Promise<number> {
  return (await env.DB.prepare("SELECT credits FROM users WHERE id = ?")
    .bind(member.userId)
    .first<{ credits: number }>())!.credits;
}

/** A test's end of a WebSocket: every frame kept in order (each read with `read`), waited for by a match. */
export class FrameSocket<F extends { type: string }> {
  readonly frames: F[] = [];
  closed = false;
  private waiters: (() => void)[] = [];

  protected constructor(
    readonly ws: WebSocket,
    read: (data: string) => F,
  ) {
    ws.addEventListener("message", (event) => {
      this.frames.push(read(event.data as string));
      this.wake();
    });
    ws.addEventListener("close", () => {
      this.closed = true;
      this.wake();
    });
  }

  private wake() {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  send(frame: unknown) {
    this.ws.send(typeof frame === "string" ? frame : JSON.stringify(frame));
  }

  /** The first frame that matches (taken out of `frames`), waiting up to `ms`. */
  async next<T extends F>(match: (frame: F) => frame is T, ms?: number): Promise<T>;
  async next(match: (frame: F) => boolean, ms?: number): Promise<F>;
  async next(match: (frame: F) => boolean, ms = 5000): Promise<F> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.frames.find(match);
      if (found) {
        this.frames.splice(this.frames.indexOf(found), 1);
        return found;
      }
      if (this.closed) throw new Error("socket closed");
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching frame in ${ms} ms; frames: ${JSON.stringify(this.frames)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close() {
    try {
      this.ws.close(1000, "done");
    } catch {
      // already closed
    }
  }
}

/**
 * A chat socket as a page opens it, with every frame it receives kept in order, so a test can
 * wait for the next frame that matches.
 */
export class ChatSocket extends FrameSocket<ServerFrame> {
  private constructor(ws: WebSocket) {
    super(ws, (data) => JSON.parse(data) as ServerFrame);
  }

  static async open(member: Member, peerId: number): Promise<ChatSocket> {
    const res = await member.browser.fetch(`/api/chat-socket.php?profile=${peerId}`, {
      headers: { upgrade: "websocket", origin: member.browser.origin },
    });
    if (!res.webSocket) throw new Error(`no socket: ${res.status} ${await res.text()}`);
    res.webSocket.accept();
    const socket = new ChatSocket(res.webSocket);
    await socket.next((f) => f.type === "ready");
    return socket;
  }

  sendText(clientId: string, body: string) {
    this.send({ type: "send", client_id: clientId, kind: "text", body });
  }

  ack(clientId: string) {
    return this.next((f): f is Extract<ServerFrame, { type: "ack" }> => f.type === "ack" && f.client_id === clientId);
  }

  error(clientId: string | null) {
    return this.next(
      (f): f is Extract<ServerFrame, { type: "error" }> => f.type === "error" && f.client_id === clientId,
    );
  }

  /** The reply to one send: its ack or its error. */
  reply(clientId: string) {
    return this.next(
      (f): f is Extract<ServerFrame, { type: "ack" | "error" }> =>
        (f.type === "ack" || f.type === "error") && f.client_id === clientId,
    );
  }

  message(match: (body: string | null) => boolean = () => true) {
    return this.next(
      (f): f is Extract<ServerFrame, { type: "message" }> => f.type === "message" && match(f.message.body),
    );
  }
}

export const clientId = () => crypto.randomUUID().replaceAll("-", "");

/** A member socket (live badges) of a member's browser; `closed` turns true when the server closes it. */
export async function memberSocket(member: Member): Promise<{ closed: () => boolean }> {
  const res = await member.browser.fetch("/api/member-socket.php?visible=1", {
    headers: { upgrade: "websocket", origin: member.browser.origin },
  });
  if (!res.webSocket) throw new Error(`no member socket: ${res.status}`);
  res.webSocket.accept();
  let closed = false;
  res.webSocket.addEventListener("close", () => (closed = true));
  return { closed: () => closed };
}

/** Whether a socket is closed within a second: the close frame a call awaited is still on its way to the test's end. */
export async function closedSoon(closed: () => boolean): Promise<boolean> {
  for (let i = 0; i < 100 && !closed(); i++) await new Promise((r) => setTimeout(r, 10));
  return closed();
}
