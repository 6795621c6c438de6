/**
 * Live badges (issue 13): the time from a send in a conversation until the badge frame reaches the
 * other member's open member socket (GET /api/member-socket.php, the socket every page of theirs
 * holds), p50 and p99, next to a bare Durable Object echo over WebSockets in the same run
 * (bench/echo-worker.ts). Badges and echo take turns in small rounds, so drift on the machine falls
 * on both alike. Printed, never asserted.
 */
import type { ServerFrame } from "../src/shared/chat";
import type { MemberFrame } from "../src/shared/member-frames";
import { localD1 } from "../test/e2e/server";
import { echoOnce, Endpoint, openChat, sendFrame, serveEcho, signUp, stats, withTimeout, type Member, type Stats } from "./chat";
import { BenchSocket } from "./ws-client";

export type BadgesBenchOptions = { port: number; host: string; persistTo: string; echoPort: number; messages: number };
export type BadgesBenchResult = { messages: number; echo: Stats; receipt: Stats; badge: Stats };

const WARM_UP = 30;
const ROUND = 10;

/** The member socket of an open page, once it has told the page its badges. */
async function openMemberSocket(port: number, host: string, member: Member): Promise<Endpoint> {
  const socket = await BenchSocket.open({ port, host, path: "/api/member-socket.php?visible=1", headers: { cookie: member.cookie } });
  await withTimeout(
    new Promise<void>((resolve) => socket.listen((text) => (JSON.parse(text) as MemberFrame).type === "counts" && resolve())),
    "counts frame",
  );
  return new Endpoint(socket);
}

/**
 * One message from the chat socket `from`: ms until the recipient's open conversation has it (the
 * chat's own fan-out) and until the recipient's member socket has the badge frame for it.
 */
async function badgeOnce(from: Endpoint, to: Endpoint, page: Endpoint, clientId: string, body: string): Promise<{ receipt: number; badge: number }> {
  const badged = new Promise<number>((resolve) => {
    page.onText = (text, at) => {
      const frame = JSON.parse(text) as MemberFrame;
      if (frame.type === "event" && frame.event.kind === "message" && frame.event.preview === body) resolve(at);
    };
  });
  const received = new Promise<number>((resolve) => {
    to.onText = (text, at) => {
      const frame = JSON.parse(text) as ServerFrame;
      if (frame.type === "message" && frame.message.body === body) resolve(at);
    };
  });
  from.onText = () => undefined;
  const started = performance.now();
  from.socket.send(sendFrame(clientId, body));
  const [receipt, badge] = await withTimeout(Promise.all([received, badged]), "badge frame");
  return { receipt: receipt - started, badge: badge - started };
}

/** Signs up two members (the writer paid and rich), serves the echo, measures both and closes everything it opened. */
export async function badgesBench({ port, host, persistTo, echoPort, messages }: BadgesBenchOptions): Promise<BadgesBenchResult> {
  const tag = Math.random().toString(36).slice(2, 10).replace(/[^a-z0-9]/g, "x").padEnd(8, "x");
  const writer = await signUp(port, host, `badgea${tag}`, "male");
  const reader = await signUp(port, host, `badgeb${tag}`, "female");
  localD1(persistTo, `UPDATE users SET status = 'active', credits = 1000000, paid_user = 1 WHERE id IN (SELECT user_id FROM profiles WHERE id IN (${writer.profileId}, ${reader.profileId}))`);
  const echo = await serveEcho(echoPort);
  const sockets: BenchSocket[] = [];
  try {
    const chat = await openChat(port, host, writer, reader);
    sockets.push(chat.socket);
    const readerChat = await openChat(port, host, reader, writer);
    sockets.push(readerChat.socket);
    const page = await openMemberSocket(port, host, reader);
    sockets.push(page.socket);
    const room = `/socket?room=badges${tag}`;
    const echoA = new Endpoint(await BenchSocket.open({ port: echoPort, host: "echo.localhost", path: room }));
    sockets.push(echoA.socket);
    const echoB = new Endpoint(await BenchSocket.open({ port: echoPort, host: "echo.localhost", path: room }));
    sockets.push(echoB.socket);
    const text = (phase: string, seq: number) => `badge ${tag} ${phase} ${seq}`;

    for (let i = 0; i < WARM_UP; i++) {
      await badgeOnce(chat, readerChat, page, `${tag}w${i}`, text("warm-up", i));
      await echoOnce(echoA, echoB, sendFrame(`${tag}w${i}`, text("warm-up", i)));
    }
    const times: { receipt: number; badge: number }[] = [];
    const echoTimes: number[] = [];
    for (let done = 0; done < messages; done += ROUND) {
      const n = Math.min(ROUND, messages - done);
      for (let k = 0; k < n; k++) times.push(await badgeOnce(chat, readerChat, page, `${tag}m${done + k}`, text("message", done + k)));
      for (let k = 0; k < n; k++) echoTimes.push((await echoOnce(echoA, echoB, sendFrame(`${tag}m${done + k}`, text("message", done + k)))).receipt);
    }
    return { messages, echo: stats(echoTimes), receipt: stats(times.map((t) => t.receipt)), badge: stats(times.map((t) => t.badge)) };
  } finally {
    await Promise.all(sockets.map((s) => s.close()));
    await echo.stop();
  }
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

export function printBadges(r: BadgesBenchResult): void {
  console.info(`\nlive badges: ${r.messages} messages one at a time, badges and echo in turns of ${ROUND} (after ${WARM_UP} of each)\n`);
  console.info("target                                      p50         p99         p50 ratio  p99 ratio");
  const row = (name: string, s: Stats) => console.info(`${name.padEnd(43)} ${ms(s.p50).padEnd(11)} ${ms(s.p99).padEnd(11)} ${(s.p50 / r.echo.p50).toFixed(2).padEnd(10)} ${(s.p99 / r.echo.p99).toFixed(2)}`);
  row("bare DO echo, socket to socket", r.echo);
  row("chat send -> open conversation's socket", r.receipt);
  row("chat send -> badge frame on member socket", r.badge);
  console.info(`chat send -> badge frame p50 = ${(r.badge.p50 / r.echo.p50).toFixed(2)}x, p99 = ${(r.badge.p99 / r.echo.p99).toFixed(2)}x the bare DO echo (target within 3x)`);
  console.info(`the badge comes ${ms(r.badge.p50 - r.receipt.p50)} (p50) after the message reaches an open conversation: the rest is the send itself (stored in the conversation's object first)`);
}
