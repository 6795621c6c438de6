/**
 * Chat over the conversation's Durable Object, measured against a bare Durable Object echo over
 * WebSockets (bench/echo-worker.ts, its own `wrangler dev`) in the same run:
 *
 * - latency: member A sends text messages one at a time; the time from the send until member B's
 *   socket has the message (and until A has the ack), p50 and p99, as ratios to the echo's time
 *   from a send on one socket to its receipt on the other. Chat and echo take turns in small
 *   rounds, so drift on the machine falls on both alike.
 * - throughput: A sends a burst without waiting for acks; messages per second until B has every
 *   message and A every ack, with a loss check (lost, duplicated, out of order, stored in the
 *   conversation's object, charged in D1).
 * - storage: bytes of D1 and of the objects' storage per paid message (every message above) and
 *   per free message (free members writing within their allowance), and how many messages D1's
 *   10 GB then holds.
 *
 * The two members sign up through the API on the served app; their accounts are then made active,
 * paid and rich in the local D1 with `wrangler d1 execute`, so every message is stored and charged
 * for real. Printed, never asserted.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { request } from "node:http";
import type { ServerFrame } from "../src/shared/chat";
import { localD1 } from "../test/e2e/server";
import { percentile } from "./load";
import { objectRows, storageBytes } from "./storage";
import { BenchSocket } from "./ws-client";

export type ChatBenchOptions = {
  /** The served app (test/e2e/server.ts serve) and its state directory. */
  port: number;
  host: string;
  persistTo: string;
  /** Where the echo Worker is served for the baseline. */
  echoPort: number;
  /** Messages one at a time, each for chat and echo, after WARM_UP of each. */
  messages: number;
  /** Messages in the pipelined burst. */
  burst: number;
};

const WARM_UP = 50;
/** Messages of one kind sent before the other kind's turn. */
const ROUND = 10;
const CREDITS = 1_000_000;
const REPLY_TIMEOUT_MS = 10_000;
/** A burst ends when everything has arrived, or when nothing has for this long. */
const STALL_MS = 10_000;
const ECHO_STATE = ".tmp/bench-echo-state";
const WRANGLER_ENV = { CI: "true", WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" };

type Timing = { receipt: number; ack: number | null };
export type Stats = { p50: number; p99: number };
export type BurstResult = {
  sent: number;
  seconds: number;
  rate: number;
  received: number;
  lost: number;
  duplicated: number;
  outOfOrder: number;
  /** Chat only: acks and refusals on the sender's socket, B's ids that differ from the acked ones, what D1 holds. */
  acked?: number;
  refused?: number;
  idMismatches?: number;
  stored?: number;
  charged?: number;
  chargedStored?: number;
  balanceMatches?: boolean;
};
/** Bytes per message in D1 and in the objects' storage. */
export type StorageFigures = {
  paidMessages: number;
  d1PerPaid: number;
  objectPerPaid: number;
  freeMessages: number;
  d1PerFree: number;
  objectPerFree: number;
};

export type ChatBenchResult = {
  messages: number;
  storage: StorageFigures;
  echo: Stats;
  chat: Stats;
  ack: Stats;
  echoBurst: BurstResult;
  chatBurst: BurstResult;
};

export const stats = (values: number[]): Stats => {
  const sorted = values.toSorted((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
};

/**
 * An HTTP call to the served app as one of its pages makes it (same origin, X-Request-Type); a
 * URLSearchParams body goes as a form, a string as it is (with its content type in `headers`).
 */
export function call(
  port: number,
  host: string,
  method: string,
  path: string,
  cookie: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  return new Promise<{ status: number; body: string; cookies: string[] }>((resolve, reject) => {
    const form = body instanceof URLSearchParams;
    const payload =
      body === undefined ? undefined : form ? body.toString() : typeof body === "string" ? body : JSON.stringify(body);
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path,
        method,
        headers: {
          host: `${host}:${port}`,
          origin: `http://${host}:${port}`,
          "x-request-type": "client",
          ...(cookie ? { cookie } : {}),
          ...(payload === undefined
            ? {}
            : {
                "content-type": form ? "application/x-www-form-urlencoded" : "application/json",
                "content-length": Buffer.byteLength(payload),
              }),
          ...headers,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body: text, cookies: res.headers["set-cookie"] ?? [] }),
        );
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

export type Member = { profileId: number; cookie: string };

export async function signUp(port: number, host: string, username: string, gender: "male" | "female"): Promise<Member> {
  const res = await call(port, host, "POST", "/api/signup.php", "", {
    email: `${username}@example.com`,
    username,
    password: "a good bench password",
    date_of_birth: "1990-04-14",
    gender,
    terms: true,
  });
  if (res.status !== 201) throw new Error(`bench: signup failed: ${res.status} ${res.body}`);
  const cookie = res.cookies.map((c) => c.split(";")[0]!).join("; ");
  if (!cookie.includes("session=")) throw new Error("bench: signup set no session cookie");
  const { user } = JSON.parse(res.body) as { user: { profile: { id: number } } };
  return { profileId: user.profile.id, cookie };
}

/** The echo Worker under its own wrangler dev, stopped like the app's server. */
export async function serveEcho(port: number): Promise<{ stop: () => Promise<void> }> {
  const child: ChildProcess = spawn(
    "wrangler",
    [
      "dev",
      "--config",
      "bench/wrangler.echo.toml",
      "--persist-to",
      ECHO_STATE,
      "--port",
      String(port),
      "--inspector-port",
      String(port + 1000),
      "--ip",
      "127.0.0.1",
      "--log-level",
      "warn",
      "--show-interactive-dev-session=false",
    ],
    { stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, ...WRANGLER_ENV }, detached: true },
  );
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    process.kill(-child.pid!, "SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (child.exitCode === null) process.kill(-child.pid!, "SIGKILL");
  };
  const started = Date.now();
  while (Date.now() - started < 60_000) {
    if (child.exitCode !== null) throw new Error(`the echo Worker's wrangler dev exited with ${child.exitCode}`);
    const up = await call(port, "echo.localhost", "GET", "/", "").then(
      (r) => r.status === 200 && r.body === "echo",
      () => false,
    );
    if (up) return { stop };
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error(`the echo Worker on port ${port} did not come up (is the port in use? pass --echo-port)`);
}

/** A socket whose text frames go to whatever handler is set now. */
export class Endpoint {
  onText: (text: string, at: number) => void = () => undefined;
  constructor(readonly socket: BenchSocket) {
    socket.listen((text, at) => this.onText(text, at));
  }
}

/** A chat socket, once its first frame (`ready`) has arrived. */
export async function openChat(port: number, host: string, member: Member, peer: Member): Promise<Endpoint> {
  const socket = await BenchSocket.open({
    port,
    host,
    path: `/api/chat-socket.php?profile=${peer.profileId}`,
    headers: { cookie: member.cookie },
  });
  await withTimeout(
    new Promise<void>((resolve) =>
      socket.listen((text) => (JSON.parse(text) as ServerFrame).type === "ready" && resolve()),
    ),
    "ready frame",
  );
  return new Endpoint(socket);
}

export const sendFrame = (clientId: string, body: string) =>
  JSON.stringify({ type: "send", client_id: clientId, kind: "text", body });

export function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>(
    (_, reject) =>
      (timer = setTimeout(
        () => reject(new Error(`chat bench: no ${what} in ${REPLY_TIMEOUT_MS} ms`)),
        REPLY_TIMEOUT_MS,
      )),
  );
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** One chat message from `from` to `to`: ms until `to` has it and until `from` has the ack. Tracks the sender's balance. */
async function chatOnce(
  from: Endpoint,
  to: Endpoint,
  clientId: string,
  body: string,
  balance: { credits: number },
): Promise<Timing> {
  const received = new Promise<number>((resolve) => {
    to.onText = (text, at) => {
      const frame = JSON.parse(text) as ServerFrame;
      if (frame.type === "message" && frame.message.body === body) resolve(at);
    };
  });
  const acked = new Promise<number>((resolve, reject) => {
    from.onText = (text, at) => {
      const frame = JSON.parse(text) as ServerFrame;
      if (frame.type === "ack" && frame.client_id === clientId) {
        balance.credits = frame.credits;
        resolve(at);
      } else if (frame.type === "error" && frame.client_id === clientId) {
        reject(new Error(`chat bench: send refused: ${frame.error} ${frame.message}`));
      }
    };
  });
  const started = performance.now();
  from.socket.send(sendFrame(clientId, body));
  const [receipt, ack] = await withTimeout(Promise.all([received, acked]), "chat message");
  return { receipt: receipt - started, ack: ack - started };
}

/** One echo message: ms until the other socket has it. */
export async function echoOnce(from: Endpoint, to: Endpoint, text: string): Promise<Timing> {
  const received = new Promise<number>((resolve) => {
    to.onText = (got, at) => {
      if (got === text) resolve(at);
    };
  });
  const started = performance.now();
  from.socket.send(text);
  return { receipt: (await withTimeout(received, "echo")) - started, ack: null };
}

type Burst = {
  sent: number;
  seconds: number;
  seqs: number[];
  ids: number[];
  acks: Map<number, { id: number; credits: number; cost: number }>;
  refused: number;
};

/**
 * Sends `count` frames from `from` as fast as the socket takes them and waits until `to` has them
 * all (and, for chat, `from` has every reply), or nothing arrives for STALL_MS.
 */
async function burst(
  from: Endpoint,
  to: Endpoint,
  count: number,
  frameOf: (seq: number) => string,
  received: (text: string) => { seq: number; id: number } | null,
  chat: boolean,
): Promise<Burst> {
  const result: Burst = { sent: count, seconds: 0, seqs: [], ids: [], acks: new Map(), refused: 0 };
  const seen = new Set<number>();
  let lastAt = performance.now();
  let replies = 0;
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const check = () => {
    if (seen.size >= count && (!chat || replies >= count)) finish();
  };
  to.onText = (text, at) => {
    const got = received(text);
    if (!got) return;
    result.seqs.push(got.seq);
    result.ids.push(got.id);
    seen.add(got.seq);
    lastAt = at;
    check();
  };
  if (chat) {
    from.onText = (text, at) => {
      const frame = JSON.parse(text) as ServerFrame;
      if (frame.type === "ack") {
        result.acks.set(Number(frame.client_id.split("b").at(-1)), {
          id: frame.message.id,
          credits: frame.credits,
          cost: frame.message.credits,
        });
      } else if (frame.type === "error") {
        result.refused++;
      } else {
        return;
      }
      replies++;
      lastAt = at;
      check();
    };
  }
  const stall = setInterval(() => {
    if (performance.now() - lastAt > STALL_MS) finish();
  }, 250);
  const started = performance.now();
  lastAt = started;
  for (let seq = 0; seq < count; seq++) from.socket.send(frameOf(seq));
  await finished;
  clearInterval(stall);
  result.seconds = (lastAt - started) / 1000;
  return result;
}

function burstFigures(b: Burst): BurstResult {
  const unique = new Set(b.seqs).size;
  let outOfOrder = 0;
  for (let i = 1; i < b.seqs.length; i++) if (b.seqs[i]! < b.seqs[i - 1]!) outOfOrder++;
  return {
    sent: b.sent,
    seconds: b.seconds,
    rate: unique / b.seconds,
    received: b.seqs.length,
    lost: b.sent - unique,
    duplicated: b.seqs.length - unique,
    outOfOrder,
  };
}

const D1_LIMIT_BYTES = 10e9;
/** Free members who each write their allowance to the two bench members (after each conversation's first message). */
const FREE_WRITERS = 4;

/**
 * Storage per free message: free members write to A and B; each conversation's first message
 * (which makes the conversation and its two memberships in D1) is left out, the next two are measured.
 */
async function freeMessageBytes(
  port: number,
  host: string,
  persistTo: string,
  tag: string,
  peers: Member[],
): Promise<{ messages: number; d1: number; objects: number }> {
  const writers: Member[] = [];
  for (let i = 0; i < FREE_WRITERS; i++)
    writers.push(await signUp(port, host, `benchf${i}${tag}`, i % 2 ? "male" : "female"));
  localD1(
    persistTo,
    `UPDATE users SET status = 'active', credits = 0, paid_user = 0 WHERE id IN (SELECT user_id FROM profiles WHERE id IN (${writers.map((w) => w.profileId).join(", ")}))`,
  );
  const total = { messages: 0, d1: 0, objects: 0 };
  for (const writer of writers) {
    for (const peer of peers) {
      const from = await openChat(port, host, writer, peer);
      const to = await openChat(port, host, peer, writer);
      const none = { credits: 0 };
      await chatOnce(from, to, `${tag}f${writer.profileId}x0`, `free ${tag} first`, none);
      const before = storageBytes(persistTo);
      for (let k = 1; k < 3; k++) await chatOnce(from, to, `${tag}f${writer.profileId}x${k}`, `free ${tag} ${k}`, none);
      const after = storageBytes(persistTo);
      total.messages += 2;
      total.d1 += after.d1 - before.d1;
      total.objects += after.objects - before.objects;
      await Promise.all([from.socket.close(), to.socket.close()]);
    }
  }
  return total;
}

/** Signs up the two members, serves the echo, measures both and closes everything it opened. */
export async function chatBench({
  port,
  host,
  persistTo,
  echoPort,
  messages,
  burst: burstSize,
}: ChatBenchOptions): Promise<ChatBenchResult> {
  const tag = Math.random()
    .toString(36)
    .slice(2, 10)
    .replace(/[^a-z0-9]/g, "x")
    .padEnd(8, "x");
  const a = await signUp(port, host, `bencha${tag}`, "male");
  const b = await signUp(port, host, `benchb${tag}`, "female");
  localD1(
    persistTo,
    `UPDATE users SET status = 'active', credits = ${CREDITS}, paid_user = 1 WHERE id IN (SELECT user_id FROM profiles WHERE id IN (${a.profileId}, ${b.profileId}))`,
  );
  for (const member of [a, b]) {
    const res = await call(port, host, "GET", "/api/user.php", member.cookie);
    const { user } = JSON.parse(res.body) as { user: { status: string; credits: number; paid_user: boolean } };
    if (user.status !== "active" || user.credits !== CREDITS || !user.paid_user)
      throw new Error(`chat bench: the served app does not see the account update: ${res.body}`);
  }

  const echo = await serveEcho(echoPort);
  const sockets: BenchSocket[] = [];
  try {
    const chatA = await openChat(port, host, a, b);
    sockets.push(chatA.socket);
    const chatB = await openChat(port, host, b, a);
    sockets.push(chatB.socket);
    const room = `/socket?room=${tag}`;
    const echoA = new Endpoint(await BenchSocket.open({ port: echoPort, host: "echo.localhost", path: room }));
    sockets.push(echoA.socket);
    const echoB = new Endpoint(await BenchSocket.open({ port: echoPort, host: "echo.localhost", path: room }));
    sockets.push(echoB.socket);

    const balanceA = { credits: CREDITS };
    const balanceB = { credits: CREDITS };
    const storageBefore = storageBytes(persistTo);
    // Client ids: 8-64 of [A-Za-z0-9_-]; "l" for one at a time, "b" for the burst (its number follows the last "b").
    const latencyId = (seq: number) => `${tag}l${seq}`;
    const text = (phase: string, seq: number) =>
      `bench ${tag} ${phase} ${seq}: the quick brown fox jumps over the lazy dog`;

    // Warm-up: both directions of the chat (each member can write to the other), and the echo.
    for (let i = 0; i < WARM_UP; i++) {
      if (i % 2) await chatOnce(chatB, chatA, `${tag}w${i}`, text("warm-up", i), balanceB);
      else await chatOnce(chatA, chatB, `${tag}w${i}`, text("warm-up", i), balanceA);
      await echoOnce(echoA, echoB, sendFrame(`${tag}w${i}`, text("warm-up", i)));
    }

    const chatTimes: Timing[] = [];
    const echoTimes: Timing[] = [];
    for (let done = 0; done < messages; done += ROUND) {
      const n = Math.min(ROUND, messages - done);
      for (let k = 0; k < n; k++)
        chatTimes.push(await chatOnce(chatA, chatB, latencyId(done + k), text("message", done + k), balanceA));
      for (let k = 0; k < n; k++)
        echoTimes.push(await echoOnce(echoA, echoB, sendFrame(latencyId(done + k), text("message", done + k))));
    }

    // Throughput: the echo first, then the chat, each a burst of the same frames.
    const burstId = (seq: number) => `${tag}b${seq}`;
    const echoRaw = await burst(
      echoA,
      echoB,
      burstSize,
      (seq) => sendFrame(burstId(seq), `bench ${tag} burst ${seq}`),
      (got) => {
        const { client_id } = JSON.parse(got) as { client_id: string };
        return client_id.startsWith(`${tag}b`) ? { seq: Number(client_id.slice(tag.length + 1)), id: 0 } : null;
      },
      false,
    );
    const before = balanceA.credits;
    const bodyPrefix = `bench ${tag} burst `;
    const chatRaw = await burst(
      chatA,
      chatB,
      burstSize,
      (seq) => sendFrame(burstId(seq), `${bodyPrefix}${seq}`),
      (got) => {
        const frame = JSON.parse(got) as ServerFrame;
        if (frame.type !== "message" || !frame.message.body?.startsWith(bodyPrefix)) return null;
        return { seq: Number(frame.message.body.slice(bodyPrefix.length)), id: frame.message.id };
      },
      true,
    );

    const chatBurst = burstFigures(chatRaw);
    const acks = [...chatRaw.acks.entries()].toSorted(([x], [y]) => x - y);
    let ackOrder = 0;
    for (let i = 1; i < acks.length; i++) if (acks[i]![1].id < acks[i - 1]![1].id) ackOrder++;
    chatBurst.outOfOrder += ackOrder;
    chatBurst.acked = chatRaw.acks.size;
    chatBurst.refused = chatRaw.refused;
    chatBurst.idMismatches = chatRaw.seqs.filter((seq, i) => chatRaw.acks.get(seq)?.id !== chatRaw.ids[i]).length;
    chatBurst.charged = acks.reduce((sum, [, ack]) => sum + ack.cost, 0);
    const last = acks.toSorted(([, x], [, y]) => x.id - y.id).at(-1)?.[1];
    const [balance] = localD1(
      persistTo,
      `SELECT credits FROM users WHERE id = (SELECT user_id FROM profiles WHERE id = ${a.profileId})`,
    );
    const stored = objectRows<{ n: number; charged: number }>(
      persistTo,
      `SELECT COUNT(*) AS n, COALESCE(SUM(credits_charged), 0) AS charged FROM messages WHERE recorded = 1 AND sender_id = ${a.profileId} AND client_id LIKE '${tag}b%'`,
    );
    chatBurst.stored = stored.reduce((sum, r) => sum + Number(r.n), 0);
    chatBurst.chargedStored = stored.reduce((sum, r) => sum + Number(r.charged), 0);
    const credits = Number(balance?.[0]?.credits);
    chatBurst.balanceMatches =
      last !== undefined && last.credits === before - chatBurst.charged && credits === last.credits;

    const storageAfter = storageBytes(persistTo);
    const paidMessages = WARM_UP + messages + chatBurst.acked;
    const free = await freeMessageBytes(port, host, persistTo, tag, [a, b]);
    const storage: StorageFigures = {
      paidMessages,
      d1PerPaid: (storageAfter.d1 - storageBefore.d1) / paidMessages,
      objectPerPaid: (storageAfter.objects - storageBefore.objects) / paidMessages,
      freeMessages: free.messages,
      d1PerFree: free.d1 / free.messages,
      objectPerFree: free.objects / free.messages,
    };

    return {
      messages,
      storage,
      echo: stats(echoTimes.map((t) => t.receipt)),
      chat: stats(chatTimes.map((t) => t.receipt)),
      ack: stats(chatTimes.map((t) => t.ack!)),
      echoBurst: burstFigures(echoRaw),
      chatBurst,
    };
  } finally {
    await Promise.all(sockets.map((s) => s.close()));
    await echo.stop();
  }
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

export function printChat(r: ChatBenchResult): void {
  console.info(
    `\nchat latency: ${r.messages} text messages one at a time on one conversation, chat and echo in turns of ${ROUND} (after ${WARM_UP} of each)\n`,
  );
  console.info("target                              p50         p99         p50 ratio  p99 ratio");
  const row = (name: string, s: Stats) =>
    console.info(
      `${name.padEnd(35)} ${ms(s.p50).padEnd(11)} ${ms(s.p99).padEnd(11)} ${(s.p50 / r.echo.p50).toFixed(2).padEnd(10)} ${(s.p99 / r.echo.p99).toFixed(2)}`,
    );
  row("bare DO echo, socket to socket", r.echo);
  row("chat send -> other member's socket", r.chat);
  row("chat send -> sender's ack", r.ack);

  console.info(
    `\nchat throughput: a burst of ${r.chatBurst.sent} messages on one conversation, sent without waiting for acks\n`,
  );
  console.info("target                              msg/s     time        received  lost  duplicated  out of order");
  const burstRow = (name: string, b: BurstResult) =>
    console.info(
      `${name.padEnd(35)} ${b.rate.toFixed(0).padEnd(9)} ${`${b.seconds.toFixed(2)} s`.padEnd(11)} ${String(b.received).padEnd(9)} ${String(b.lost).padEnd(5)} ${String(b.duplicated).padEnd(11)} ${b.outOfOrder}`,
    );
  burstRow("bare DO echo", r.echoBurst);
  burstRow("chat (stored and charged)", r.chatBurst);
  const c = r.chatBurst;
  console.info(
    `\nchat burst: acks ${c.acked} of ${c.sent}, refused ${c.refused}, ids differing between ack and receipt ${c.idMismatches}; stored in the object ${c.stored} of ${c.sent}; charged ${c.charged} credits (object: ${c.chargedStored}), sender's balance ${c.balanceMatches ? "matches" : "DOES NOT match"}`,
  );
  console.info(
    `chat send -> receipt p50 = ${(r.chat.p50 / r.echo.p50).toFixed(2)}x, p99 = ${(r.chat.p99 / r.echo.p99).toFixed(2)}x the bare DO echo (target within 2x)`,
  );
  console.info(
    `one conversation sustains ${c.rate.toFixed(0)} messages/s with lost: ${c.lost}, duplicated: ${c.duplicated}, out of order: ${c.outOfOrder}`,
  );
  const s = r.storage;
  const bytes = (n: number) => `${n.toFixed(1)} B`;
  const fit = (perMessage: number) =>
    perMessage > 0 ? `${(D1_LIMIT_BYTES / perMessage / 1e6).toFixed(0)} million` : "no limit from messages";
  console.info(`\nchat storage per message (pages in use, WAL included)\n`);
  console.info("message                 D1          object      messages before D1's 10 GB");
  console.info(
    `${`paid (${s.paidMessages})`.padEnd(23)} ${bytes(s.d1PerPaid).padEnd(11)} ${bytes(s.objectPerPaid).padEnd(11)} ${fit(s.d1PerPaid)}`,
  );
  console.info(
    `${`free (${s.freeMessages})`.padEnd(23)} ${bytes(s.d1PerFree).padEnd(11)} ${bytes(s.objectPerFree).padEnd(11)} ${fit(s.d1PerFree)}`,
  );
  console.info(
    `D1 bytes per paid message amortised: ${bytes(s.d1PerPaid)} over ${s.paidMessages} paid messages of one conversation and day (target under 5 B; the ledger keeps one row per member, conversation and day, docs/decisions/0033)`,
  );
}
