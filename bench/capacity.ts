/**
 * The capacity model of D1 (docs/scale.md): a day of `members` active members, each doing what the
 * stated behaviour below says through the served app's own API and sockets, with the bytes each D1
 * table grows by (pages in use, its indexes included, read with SQLite's dbstat) divided by the
 * members: bytes per active member per day (a table's new rows times the bytes one of its rows
 * takes, pages in use and indexes included, so that 4 KB pages do not hide small tables). From those, the days until D1's 10 GB at 10,000,
 * 100,000 and 1,000,000 daily active members, with the tables that have a retention (the daily
 * clock work, docs/decisions/0032) counted at their plateau, and the D1 writes per second.
 *
 * The behaviour of one day, per 1,000 active members (BEHAVIOUR below):
 * - 30 new members sign up (an activation mail and link each);
 * - every member logs in once (a session) and searches 5 times;
 * - every member likes 8 others (a tenth of them like back: matches, their mails and pushes);
 * - 700 free members write 2 free messages to a premium member (a new conversation each);
 * - 300 premium members write 20 paid messages, 10 in each of two conversations;
 * - 20 members upload a photo; 30 members buy credits (an order, its payment, the webhook);
 * - 200 members have a push subscription; mail and push go out as the app decides (nobody has a
 *   page open, so messages, likes and matches are mailed and pushed as the members' choices say).
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { ServerFrame } from "../src/shared/chat";
import initialize from "@phi-ag/argon2/node";
import { execFileSync } from "node:child_process";
import { webcrypto } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { PASSWORD_HASH } from "../src/server/auth/password-params";
import { localD1, seed, serve } from "../test/e2e/server";
import { call, openChat, sendFrame, signUp, withTimeout, type Endpoint, type Member } from "./chat";

export const BEHAVIOUR = {
  signupsPerThousand: 30,
  searchesEach: 5,
  likesEach: 8,
  likeBackShare: 0.1,
  premiumShare: 0.3,
  freeMessagesEach: 2,
  paidMessagesEach: 20,
  paidConversationsEach: 2,
  photoUploadsPerThousand: 20,
  purchasesPerThousand: 30,
  pushSubscribersPerThousand: 200,
} as const;

/** D1's size limit per database (developers.cloudflare.com/d1/platform/limits). */
export const D1_LIMIT_BYTES = 10e9;
/**
 * A D1 database runs its queries one at a time: at about 1 ms a query that is about 1,000 queries
 * a second (D1 limits page, "How much work can a D1 database do?").
 */
export const D1_QUERIES_PER_SECOND = 1_000;
/** Evening peak over the day's average, for the writes per second. */
const PEAK_FACTOR = 3;
/** Days a table's rows stay before the clock work deletes them; absent: kept for good. */
export const RETAINED_DAYS: Record<string, number> = {
  outgoing_mail: 30,
  outgoing_sms: 30,
  outgoing_push: 30,
  // A session lives 30 days, and goes a day after it ended.
  sessions: 31,
  // Activation links live 7 days (the longest-lived kind a day brings), and go a day after.
  auth_tokens: 8,
  sms_codes: 1,
  login_attempts: 1,
};
export const SCALES = [10_000, 100_000, 1_000_000] as const;

export type TableGrowth = { table: string; bytesPerMember: number; rowsPerMember: number; retainedDays: number | null };
export type CapacityResult = {
  members: number;
  seconds: number;
  tables: TableGrowth[];
  objectsBytesPerMember: number;
  writeRequestsPerMember: number;
  /** Paid messages acknowledged during the day, and the D1 bytes of the chat ledger's rows they added (docs/decisions/0033). */
  paidMessages: number;
  chatLedgerBytes: number;
  refused: Record<string, number>;
};

/** Bytes in use per table (indexes counted with their table) and rows per table, of the local D1 files. */
function d1Tables(persistTo: string): Map<string, { bytes: number; rows: number }> {
  const dir = join(persistTo, "v3", "d1");
  const tables = new Map<string, { bytes: number; rows: number }>();
  if (!existsSync(dir)) return tables;
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((n) => n.endsWith(".sqlite"))) {
    const db = new DatabaseSync(join(dir, name), { readOnly: true });
    try {
      const owners = new Map(
        (
          db.prepare("SELECT name, tbl_name FROM sqlite_master WHERE type IN ('table', 'index')").all() as {
            name: string;
            tbl_name: string;
          }[]
        ).map((r) => [r.name, r.tbl_name]),
      );
      for (const row of db.prepare("SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name").all() as {
        name: string;
        bytes: number;
      }[]) {
        const table = owners.get(row.name) ?? row.name;
        const entry = tables.get(table) ?? { bytes: 0, rows: 0 };
        entry.bytes += row.bytes;
        tables.set(table, entry);
      }
      for (const [table, entry] of tables) {
        if (!/^[a-z_0-9]+$/.test(table) || table.startsWith("sqlite_") || table.startsWith("_cf_")) continue;
        const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
        if (exists) entry.rows = (db.prepare(`SELECT COUNT(*) AS n FROM "${table}"`).get() as { n: number }).n;
      }
    } finally {
      db.close();
    }
  }
  return tables;
}

/**
 * Bytes a row of outgoing_mail takes in production, where a provider sends the mail and D1 keeps
 * who, which kind, the subject and the provider's id, not the body or headers (src/server/mail/mailer.ts):
 * the local outbox keeps bodies, so its rows are copied without them into a scratch database with
 * the same table and indexes, and measured there.
 */
export function productionMailBytesPerRow(persistTo: string): number | null {
  const dir = join(persistTo, "v3", "d1");
  const file = readdirSync(dir, { recursive: true, encoding: "utf8" }).find((n) => n.endsWith(".sqlite"));
  if (!file) return null;
  const source = new DatabaseSync(join(dir, file), { readOnly: true });
  const scratch = new DatabaseSync(":memory:");
  try {
    for (const { sql } of source
      .prepare("SELECT sql FROM sqlite_master WHERE tbl_name = 'outgoing_mail' AND sql IS NOT NULL ORDER BY type DESC")
      .all() as { sql: string }[])
      scratch.exec(sql);
    const rows = source.prepare("SELECT * FROM outgoing_mail").all() as Record<string, string | number | null>[];
    if (rows.length === 0) return null;
    const columns = Object.keys(rows[0]!);
    const insert = scratch.prepare(
      `INSERT INTO outgoing_mail (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
    );
    scratch.exec("BEGIN");
    for (const row of rows)
      insert.run(...columns.map((c) => (c === "text" ? "" : c === "html" || c === "headers" ? null : row[c]!)));
    scratch.exec("COMMIT");
    const bytes = (
      scratch
        .prepare(
          "SELECT SUM(pgsize) AS b FROM dbstat WHERE name IN (SELECT name FROM sqlite_master WHERE tbl_name = 'outgoing_mail')",
        )
        .get() as { b: number }
    ).b;
    return bytes / rows.length;
  } finally {
    source.close();
    scratch.close();
  }
}

/** Rolled-up chat rows of the ledger (reason 'chat', docs/decisions/0033) in the local D1 files. */
function chatLedgerRows(persistTo: string): number {
  const dir = join(persistTo, "v3", "d1");
  if (!existsSync(dir)) return 0;
  let rows = 0;
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((n) => n.endsWith(".sqlite"))) {
    const db = new DatabaseSync(join(dir, name), { readOnly: true });
    try {
      if (db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'credit_ledger'").get())
        rows += (db.prepare("SELECT COUNT(*) AS n FROM credit_ledger WHERE reason = 'chat'").get() as { n: number }).n;
    } finally {
      db.close();
    }
  }
  return rows;
}

function objectBytes(persistTo: string): number {
  const dir = join(persistTo, "v3", "do");
  if (!existsSync(dir)) return 0;
  let total = 0;
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((n) => n.endsWith(".sqlite"))) {
    const db = new DatabaseSync(join(dir, name), { readOnly: true });
    try {
      total += (db.prepare("SELECT SUM(pgsize) AS b FROM dbstat").get() as { b: number | null }).b ?? 0;
    } finally {
      db.close();
    }
  }
  return total;
}

/** Runs `work` over `items`, `width` at a time. */
async function pool<T>(
  items: readonly T[],
  width: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i]!, i);
      }
    }),
  );
}

/** A multipart upload of one file in the field `photo`, as the profile's photo form sends it. */
function upload(port: number, host: string, cookie: string, path: string, file: Buffer, type: string) {
  const boundary = `----capacity${randomBytes(8).toString("hex")}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="photo.png"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return new Promise<number>((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: "POST",
        headers: {
          host: `${host}:${port}`,
          origin: `http://${host}:${port}`,
          "x-request-type": "client",
          cookie,
          "content-type": `multipart/form-data; boundary=${boundary}`,
          "content-length": body.length,
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** One send over an open chat socket, answered by its ack or its error. */
function sendOnce(from: Endpoint, clientId: string, body: string): Promise<"ack" | string> {
  const answered = new Promise<"ack" | string>((resolve) => {
    from.onText = (text) => {
      const frame = JSON.parse(text) as ServerFrame;
      if (frame.type === "ack" && frame.client_id === clientId) resolve("ack");
      else if (frame.type === "error" && frame.client_id === clientId) resolve(frame.error);
    };
  });
  from.socket.send(sendFrame(clientId, body));
  return withTimeout(answered, "capacity send");
}

const subscriptionKeys = () => ({ p256dh: rawPublicKey(), auth: randomBytes(16).toString("base64url") });

function rawPublicKey(): string {
  const { publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const der = publicKey.export({ format: "der", type: "spki" });
  // The uncompressed point is the last 65 bytes of a P-256 SubjectPublicKeyInfo.
  return der.subarray(der.length - 65).toString("base64url");
}

const progress = (phase: string) => process.stderr.write(`capacity: ${phase}\n`);

const PASSWORD = "a good bench password";

/**
 * Seeds `persistTo` with `demoProfiles` demo profiles and `members` active members, serves it on
 * `port` and plays one day of the behaviour, measuring D1 before and after.
 */
export async function capacityBench({
  port,
  host,
  persistTo,
  members,
  demoProfiles,
}: {
  port: number;
  host: string;
  persistTo: string;
  members: number;
  demoProfiles: number;
}): Promise<CapacityResult> {
  const tag = Date.now().toString(36);
  const per = (perThousand: number) => Math.max(1, Math.round((perThousand * members) / 1000));
  const refused: Record<string, number> = {};
  const refuse = (what: string) => (refused[what] = (refused[what] ?? 0) + 1);
  let writeRequests = 0;

  // Before the day (not measured): a small demo site, and the active members in it, a share of
  // them premium; written while no server runs, so only the served app writes during the day.
  seed(persistTo, demoProfiles);
  const argon2 = await initialize();
  const hash = argon2.hash(PASSWORD, { ...PASSWORD_HASH, salt: webcrypto.getRandomValues(new Uint8Array(16)) }).encoded;
  const premiumCount = Math.round(members * BEHAVIOUR.premiumShare);
  const base = 1_000_000;
  const today = Math.floor(Date.now() / 1000);
  const rows: string[] = [];
  for (let i = 0; i < members; i++) {
    const id = base + i;
    const premium = i < premiumCount;
    rows.push(
      `INSERT INTO users (id, email, username, password_hash, status, credits, paid_user, language, site_domain, signup_date, last_active_at) VALUES (${id}, 'cap${tag}m${i}@example.com', 'cap${tag}m${i}', '${hash}', 'active', ${premium ? 1000 : 0}, ${premium ? 1 : 0}, 'nl', '${host}', ${today - 86_400 * 30}, ${today});`,
      `INSERT INTO profiles (id, user_id, name, country, gender, sexuality, birth_date, status, searchable, last_active_at, created_at) VALUES (${id}, ${id}, 'Cap ${i}', 'NL', '${i % 2 ? "male" : "female"}', 'hetero', '1990-0${1 + (i % 9)}-1${i % 9}', 'active', 1, ${today}, ${today - 86_400 * 30});`,
    );
  }
  mkdirSync(".tmp", { recursive: true });
  writeFileSync(".tmp/capacity-members.sql", rows.join("\n"));
  execFileSync(
    "wrangler",
    [
      "d1",
      "execute",
      "DB",
      "--local",
      "--config",
      "wrangler.toml",
      "--persist-to",
      persistTo,
      "--file",
      ".tmp/capacity-members.sql",
    ],
    {
      env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const server = await serve(persistTo, port);
  try {
    return await theDay();
  } finally {
    await server.stop();
  }

  async function theDay(): Promise<CapacityResult> {
    const ids = Array.from({ length: members }, (_, i) => base + i);
    const before = d1Tables(persistTo);
    const objectsBefore = objectBytes(persistTo);
    const chatRowsBefore = chatLedgerRows(persistTo);
    let paidMessages = 0;
    const started = performance.now();

    // New members.
    progress("new members");
    await pool(
      Array.from({ length: per(BEHAVIOUR.signupsPerThousand) }, (_, i) => i),
      2,
      async (i) => {
        writeRequests++;
        await signUp(port, host, `cap${tag}n${i}`, i % 2 ? "male" : "female");
      },
    );

    // Every member logs in once, then searches.
    progress("every member logs in once");
    const active: Member[] = Array.from({ length: members });
    await pool(ids, 4, async (id, i) => {
      writeRequests++;
      const res = await call(port, host, "POST", "/api/user.php", "", {
        email: `cap${tag}m${i}@example.com`,
        password: PASSWORD,
      });
      if (res.status !== 200) throw new Error(`capacity: login failed ${res.status} ${res.body}`);
      active[i] = { profileId: id, cookie: res.cookies.map((c) => c.split(";")[0]!).join("; ") };
      for (let s = 0; s < BEHAVIOUR.searchesEach; s++) {
        const res2 = await call(
          port,
          host,
          "GET",
          `/api/search.php?gender=${i % 2 ? "female" : "male"}&page=${s + 1}`,
          active[i]!.cookie,
        );
        if (res2.status !== 200) refuse(`search ${res2.status}`);
      }
    });

    // Likes, a tenth of them liked back.
    progress("likes");
    await pool(active, 4, async (member, i) => {
      for (let k = 1; k <= BEHAVIOUR.likesEach; k++) {
        const target = active[(i + k * 7) % members]!;
        writeRequests++;
        const res = await call(port, host, "POST", "/api/like.php", member.cookie, {
          profile: { id: target.profileId },
        });
        if (res.status >= 300) refuse(`like ${res.status}`);
        if (k === 1 && i % Math.round(1 / BEHAVIOUR.likeBackShare) === 0) {
          writeRequests++;
          const back = await call(port, host, "POST", "/api/like.php", target.cookie, {
            profile: { id: member.profileId },
          });
          if (back.status >= 300) refuse(`like back ${back.status}`);
        }
      }
    });

    // Push subscriptions (the outbox records each push the app decides to send).
    progress("push subscriptions");
    await pool(active.slice(0, per(BEHAVIOUR.pushSubscribersPerThousand)), 4, async (member, i) => {
      writeRequests++;
      const keys = subscriptionKeys();
      const res = await call(port, host, "POST", "/api/user.php?push=1", member.cookie, {
        subscription: { endpoint: `https://127.0.0.1:9/push/${tag}/${i}`, keys },
      });
      if (res.status >= 300) refuse(`push subscription ${res.status}`);
    });

    // Messages: free members write to a premium member, premium members to two others.
    progress("messages");
    const premium = active.slice(0, premiumCount);
    await pool(active, 4, async (member, i) => {
      const isPremium = i < premiumCount;
      const peers = isPremium
        ? Array.from({ length: BEHAVIOUR.paidConversationsEach }, (_, k) => premium[(i + k + 1) % premiumCount]!)
        : [premium[i % premiumCount]!];
      const each = isPremium
        ? BEHAVIOUR.paidMessagesEach / BEHAVIOUR.paidConversationsEach
        : BEHAVIOUR.freeMessagesEach;
      for (const peer of peers) {
        if (peer.profileId === member.profileId) continue;
        const socket = await openChat(port, host, member, peer);
        for (let m = 0; m < each; m++) {
          writeRequests++;
          const answer = await sendOnce(
            socket,
            `cap${tag}-${i}-${peer.profileId}-${m}`,
            `Hello number ${m}, nice to meet you`,
          );
          if (answer !== "ack") refuse(`message ${answer}`);
          else if (isPremium) paidMessages++;
        }
        await socket.socket.close();
      }
    });

    // Photos.
    progress("photos");
    const photo = readFileSync("public/icons/icon-512.png");
    await pool(active.slice(0, per(BEHAVIOUR.photoUploadsPerThousand)), 2, async (member) => {
      writeRequests++;
      const status = await upload(port, host, member.cookie, "/api/photos.php", photo, "image/png");
      if (status !== 201) refuse(`photo ${status}`);
    });

    // Purchases: an order each, paid at the sandbox checkout, credited by the webhook.
    progress("purchases");
    const buyers = active.slice(premiumCount, premiumCount + per(BEHAVIOUR.purchasesPerThousand));
    const paymentIds: string[] = [];
    for (const buyer of buyers) {
      writeRequests++;
      const res = await call(port, host, "POST", "/api/order.php", buyer.cookie, { bundle_id: 1, method: "ideal" });
      if (res.status !== 201) {
        refuse(`order ${res.status}`);
        continue;
      }
      const url = (JSON.parse(res.body) as { order: { checkout_url: string } }).order.checkout_url;
      paymentIds.push(url.slice(url.lastIndexOf("/") + 1));
    }
    if (paymentIds.length)
      localD1(
        persistTo,
        `UPDATE sandbox_payments SET status = 'paid' WHERE id IN (${paymentIds.map((id) => `'${id}'`).join(",")})`,
      );
    for (const id of paymentIds) {
      writeRequests++;
      const res = await call(port, host, "POST", "/api/payment-webhook.php", "", new URLSearchParams({ id }));
      if (res.status !== 200) refuse(`webhook ${res.status}`);
    }

    // The hourly clock's mails (unread-message reminders and the like), once for the day.
    progress("the hourly clock");
    const clock = await call(port, "127.0.0.1", "GET", "/cdn-cgi/local/scheduled?cron=41+*+*+*+*", "");
    if (clock.status !== 200) refuse(`clock ${clock.status}`);
    // Let the work the app does after its answers (announcements, mail, push) finish.
    await new Promise((r) => setTimeout(r, 3000));
    const seconds = (performance.now() - started) / 1000;
    const after = d1Tables(persistTo);
    const mailRow = productionMailBytesPerRow(persistTo);
    const tables: TableGrowth[] = [...after]
      .map(([table, is]) => {
        const was = before.get(table) ?? { bytes: 0, rows: 0 };
        const rowsPerMember = (is.rows - was.rows) / members;
        // Pages come 4 KB at a time: a table's growth is its new rows times the bytes a row takes in it (pages in use, indexes included, over all its rows).
        const bytesPerRow = table === "outgoing_mail" ? (mailRow ?? 0) : is.rows > 0 ? is.bytes / is.rows : 0;
        return {
          table,
          bytesPerMember: Math.max(0, rowsPerMember) * bytesPerRow,
          rowsPerMember,
          retainedDays: RETAINED_DAYS[table] ?? null,
        };
      })
      .filter((t) => t.bytesPerMember !== 0 || t.rowsPerMember !== 0)
      .toSorted((a, b) => b.bytesPerMember - a.bytesPerMember);
    const ledger = after.get("credit_ledger");
    const chatLedgerBytes =
      ledger && ledger.rows > 0 ? (chatLedgerRows(persistTo) - chatRowsBefore) * (ledger.bytes / ledger.rows) : 0;
    return {
      members,
      seconds,
      tables,
      objectsBytesPerMember: (objectBytes(persistTo) - objectsBefore) / members,
      writeRequestsPerMember: writeRequests / members,
      paidMessages,
      chatLedgerBytes,
      refused,
    };
  }
}

/** Days until `limit` bytes at `dau` daily active members: retained tables at their plateau, the rest growing. */
export function daysUntilFull(tables: readonly TableGrowth[], dau: number, limit = D1_LIMIT_BYTES): number {
  const plateau = tables
    .filter((t) => t.retainedDays !== null)
    .reduce((sum, t) => sum + Math.max(0, t.bytesPerMember) * t.retainedDays! * dau, 0);
  const growth = tables
    .filter((t) => t.retainedDays === null)
    .reduce((sum, t) => sum + Math.max(0, t.bytesPerMember) * dau, 0);
  if (plateau >= limit) return 0;
  return growth > 0 ? (limit - plateau) / growth : Number.POSITIVE_INFINITY;
}

export function printCapacity(r: CapacityResult): void {
  const fmt = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(1));
  console.info(
    `\nD1 capacity: a day of ${r.members} active members (behaviour in bench/capacity.ts and docs/scale.md), simulated in ${r.seconds.toFixed(0)} s`,
  );
  console.info("(outgoing_mail as production keeps it: who, kind, subject and provider id, no body)");
  console.info("table                          bytes/member/day   rows/member/day   kept");
  for (const t of r.tables) {
    console.info(
      `${t.table.padEnd(30)} ${fmt(t.bytesPerMember).padStart(16)}   ${fmt(t.rowsPerMember).padStart(15)}   ${t.retainedDays === null ? "for good" : `${t.retainedDays} days`}`,
    );
  }
  const total = r.tables.reduce((s, t) => s + t.bytesPerMember, 0);
  const kept = r.tables.filter((t) => t.retainedDays === null).reduce((s, t) => s + t.bytesPerMember, 0);
  console.info(`${"total".padEnd(30)} ${fmt(total).padStart(16)}   (${fmt(kept)} kept for good)`);
  console.info(`conversation objects' own storage (not D1): ${fmt(r.objectsBytesPerMember)} bytes/member/day`);
  if (r.paidMessages > 0) {
    console.info(
      `chat ledger: ${fmt(r.chatLedgerBytes / r.paidMessages)} bytes of D1 per paid message amortised over the day's ${r.paidMessages} paid messages (one row per member, conversation and day; ${BEHAVIOUR.paidMessagesEach / BEHAVIOUR.paidConversationsEach} messages a conversation here)`,
    );
  }
  console.info(
    `write requests (logins, likes, sends, orders, webhooks, uploads): ${fmt(r.writeRequestsPerMember)} per member per day`,
  );
  for (const dau of SCALES) {
    const days = daysUntilFull(r.tables, dau);
    const writes = (r.writeRequestsPerMember * dau) / 86_400;
    console.info(
      `${dau.toLocaleString("en").padStart(9)} daily active: D1 full in ${Number.isFinite(days) ? `${days.toFixed(0)} days` : "never (only retained tables grow)"}; ` +
        `${writes.toFixed(1)} write requests/s on average, ${(writes * PEAK_FACTOR).toFixed(1)} at the evening peak (one D1 primary: about ${D1_QUERIES_PER_SECOND}/s at 1 ms a query)`,
    );
  }
  if (Object.keys(r.refused).length) console.info(`refused or failed during the day: ${JSON.stringify(r.refused)}`);
}
