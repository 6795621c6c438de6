/**
 * Live badges (issue 13): the time from a send in a conversation until the badge frame reaches the
 * other member's open member socket (GET /api/member-socket.php, the socket every page of theirs
 * holds), p50 and p99, next to a bare Durable Object echo over WebSockets in the same run
 * (bench/echo-worker.ts). Two cases, each with its own pair of members: the recipient on another
 * page (the case: the search page open while the other member writes), and the recipient
 * with the conversation open as well, whose object then also sends them the message and its unread
 * count. The cases and the echo take turns in small rounds, so drift on the machine falls on all
 * alike. Printed, never asserted.
 */
import type { ServerFrame } from "../src/shared/chat";
import type { MemberFrame } from "../src/shared/member-frames";
import { localD1 } from "../test/e2e/server";
import {
  echoOnce,
  Endpoint,
  openChat,
  sendFrame,
  serveEcho,
  signUp,
  stats,
  withTimeout,
  type Member,
  type Stats,
} from "./chat";
import { BenchSocket } from "./ws-client";

export type BadgesBenchOptions = { port: number; host: string; persistTo: string; echoPort: number; messages: number };
export type BadgesBenchResult = {
  messages: number;
  echo: Stats;
  /** The recipient on another page: the sender's ack, and the badge. */
  elsewhere: { ack: Stats; badge: Stats };
  /** The recipient with the conversation open too: the message in it, and the badge. */
  inConversation: { receipt: Stats; badge: Stats };
};

const WARM_UP = 30;
const ROUND = 10;

/** The member socket of an open page, once it has told the page its badges. */
async function openMemberSocket(port: number, host: string, member: Member): Promise<Endpoint> {
  const socket = await BenchSocket.open({
    port,
    host,
    path: "/api/member-socket.php?visible=1",
    headers: { cookie: member.cookie },
  });
  await withTimeout(
    new Promise<void>((resolve) =>
      socket.listen((text) => (JSON.parse(text) as MemberFrame).type === "counts" && resolve()),
    ),
    "counts frame",
  );
  return new Endpoint(socket);
}

/**
 * One message from the chat socket `from`: ms until `first` has the frame it waits for (the
 * sender's ack, or the message in the recipient's open conversation) and until the recipient's
 * member socket has the badge frame for it.
 */
async function badgeOnce(
  from: Endpoint,
  first: { on: Endpoint; frame: ServerFrame["type"] },
  page: Endpoint,
  clientId: string,
  body: string,
): Promise<{ first: number; badge: number }> {
  const badged = new Promise<number>((resolve) => {
    page.onText = (text, at) => {
      const frame = JSON.parse(text) as MemberFrame;
      if (frame.type === "event" && frame.event.kind === "message" && frame.event.preview === body) resolve(at);
    };
  });
  if (first.on !== from) from.onText = () => undefined;
  const arrived = new Promise<number>((resolve) => {
    first.on.onText = (text, at) => {
      const frame = JSON.parse(text) as ServerFrame;
      if (
        frame.type === first.frame &&
        (frame.type === "ack" || frame.type === "message") &&
        frame.message.body === body
      )
        resolve(at);
    };
  });
  const started = performance.now();
  from.socket.send(sendFrame(clientId, body));
  const [firstAt, badge] = await withTimeout(Promise.all([arrived, badged]), "badge frame");
  return { first: firstAt - started, badge: badge - started };
}

/** A writer (paid and rich) and a reader with a page open; `readerInChat`: the reader has the conversation open too. */
async function pairOf(port: number, host: string, persistTo: string, name: string, readerInChat: boolean) {
  const writer = await signUp(port, host, `${name}a`, "male");
  const reader = await signUp(port, host, `${name}b`, "female");
  localD1(
    persistTo,
    `UPDATE users SET status = 'active', credits = 1000000, paid_user = 1 WHERE id IN (SELECT user_id FROM profiles WHERE id IN (${writer.profileId}, ${reader.profileId}))`,
  );
  const chat = await openChat(port, host, writer, reader);
  const readerChat = readerInChat ? await openChat(port, host, reader, writer) : null;
  const page = await openMemberSocket(port, host, reader);
  return { chat, readerChat, page, sockets: [chat.socket, ...(readerChat ? [readerChat.socket] : []), page.socket] };
}

/** Signs up the two pairs, serves the echo, measures all three in turns and closes everything it opened. */
export async function badgesBench({
  port,
  host,
  persistTo,
  echoPort,
  messages,
}: BadgesBenchOptions): Promise<BadgesBenchResult> {
  const tag = Math.random()
    .toString(36)
    .slice(2, 10)
    .replace(/[^a-z0-9]/g, "x")
    .padEnd(8, "x");
  const elsewhere = await pairOf(port, host, persistTo, `badge${tag}`, false);
  const inChat = await pairOf(port, host, persistTo, `badgc${tag}`, true);
  const echo = await serveEcho(echoPort);
  const sockets: BenchSocket[] = [...elsewhere.sockets, ...inChat.sockets];
  try {
    const room = `/socket?room=badges${tag}`;
    const echoA = new Endpoint(await BenchSocket.open({ port: echoPort, host: "echo.localhost", path: room }));
    sockets.push(echoA.socket);
    const echoB = new Endpoint(await BenchSocket.open({ port: echoPort, host: "echo.localhost", path: room }));
    sockets.push(echoB.socket);
    const text = (phase: string, seq: number) => `badge ${tag} ${phase} ${seq}`;
    const onePage = (i: number, phase: string) =>
      badgeOnce(
        elsewhere.chat,
        { on: elsewhere.chat, frame: "ack" },
        elsewhere.page,
        `${tag}p${phase}${i}`,
        text(phase, i),
      );
    const inConversation = (i: number, phase: string) =>
      badgeOnce(
        inChat.chat,
        { on: inChat.readerChat!, frame: "message" },
        inChat.page,
        `${tag}c${phase}${i}`,
        text(phase, i),
      );

    for (let i = 0; i < WARM_UP; i++) {
      await onePage(i, "w");
      await inConversation(i, "w");
      await echoOnce(echoA, echoB, sendFrame(`${tag}w${i}`, text("warm-up", i)));
    }
    const pageTimes: { first: number; badge: number }[] = [];
    const chatTimes: { first: number; badge: number }[] = [];
    const echoTimes: number[] = [];
    for (let done = 0; done < messages; done += ROUND) {
      const n = Math.min(ROUND, messages - done);
      for (let k = 0; k < n; k++) pageTimes.push(await onePage(done + k, "m"));
      for (let k = 0; k < n; k++) chatTimes.push(await inConversation(done + k, "m"));
      for (let k = 0; k < n; k++)
        echoTimes.push(
          (await echoOnce(echoA, echoB, sendFrame(`${tag}m${done + k}`, text("message", done + k)))).receipt,
        );
    }
    return {
      messages,
      echo: stats(echoTimes),
      elsewhere: { ack: stats(pageTimes.map((t) => t.first)), badge: stats(pageTimes.map((t) => t.badge)) },
      inConversation: { receipt: stats(chatTimes.map((t) => t.first)), badge: stats(chatTimes.map((t) => t.badge)) },
    };
  } finally {
    await Promise.all(sockets.map((s) => s.close()));
    await echo.stop();
  }
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

export function printBadges(r: BadgesBenchResult): void {
  console.info(
    `\nlive badges: ${r.messages} messages one at a time in each case, the cases and the echo in turns of ${ROUND} (after ${WARM_UP} of each)\n`,
  );
  console.info(
    "target                                                    p50         p99         p50 ratio  p99 ratio",
  );
  const row = (name: string, s: Stats) =>
    console.info(
      `${name.padEnd(57)} ${ms(s.p50).padEnd(11)} ${ms(s.p99).padEnd(11)} ${(s.p50 / r.echo.p50).toFixed(2).padEnd(10)} ${(s.p99 / r.echo.p99).toFixed(2)}`,
    );
  row("bare DO echo, socket to socket", r.echo);
  row("recipient on another page: chat send -> sender's ack", r.elsewhere.ack);
  row("recipient on another page: chat send -> badge frame", r.elsewhere.badge);
  row("recipient in the conversation too: send -> message there", r.inConversation.receipt);
  row("recipient in the conversation too: send -> badge frame", r.inConversation.badge);
  const ratio = (s: Stats) => `p50 = ${(s.p50 / r.echo.p50).toFixed(2)}x, p99 = ${(s.p99 / r.echo.p99).toFixed(2)}x`;
  console.info(
    `chat send -> badge frame on the other member's open page: ${ratio(r.elsewhere.badge)} the bare DO echo (target within 3x)`,
  );
  console.info(
    `with the conversation open on the recipient's side as well: ${ratio(r.inConversation.badge)} (its object also sends them the message and the unread count)`,
  );
  console.info(
    `the badge comes ${ms(r.inConversation.badge.p50 - r.inConversation.receipt.p50)} (p50) after the message reaches the open conversation: the rest is the send itself (stored in the conversation's object first)`,
  );
}
