/**
 * A read replica that lags behind the primary, which Miniflare does not have. With D1's read
 * replication (https://developers.cloudflare.com/d1/best-practices/read-replication/) a session
 * started without a bookmark ("first-unconstrained") may read a replica that has not applied the
 * latest writes yet, while its writes always go to the primary; one started "first-primary" reads
 * the primary first and every copy it reads after is at least as new.
 *
 * Here the replica is a second database (REPLICA, vitest.config.ts) holding a copy of DB taken at a
 * moment (`snapshot`): a session that `lagBehind` hands out for anything but "first-primary" reads
 * that copy and writes to DB, so it does not see what was written after the snapshot. The sessions
 * of D1Reads (src/server/db/database.ts) start through `withSession`, so every request's session
 * of the Worker is such a one.
 */
import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { vi } from "vitest";

/** What D1 reads without writing: a statement that starts with SELECT (drizzle writes start with INSERT, UPDATE or DELETE). */
const isRead = (query: string) => /^\s*select\b/i.test(query);

/** The statement a lagging session prepares: it goes to the copy or to the primary once it is run. */
class LaggingStatement {
  constructor(
    readonly query: string,
    readonly values: unknown[] = [],
  ) {}

  on(database: D1Database): D1PreparedStatement {
    return database.prepare(this.query).bind(...this.values);
  }

  private target(): D1PreparedStatement {
    return this.on(isRead(this.query) ? env.REPLICA : env.DB);
  }

  bind(...values: unknown[]): LaggingStatement {
    return new LaggingStatement(this.query, values);
  }

  first(column?: string) {
    return column === undefined ? this.target().first() : this.target().first(column);
  }

  all() {
    return this.target().all();
  }

  run() {
    return this.target().run();
  }

  raw(options?: { columnNames?: boolean }) {
    return options?.columnNames ? this.target().raw({ columnNames: true }) : this.target().raw();
  }
}

/** A session of a replica that has seen DB only up to the last snapshot. */
function laggingSession(): D1DatabaseSession {
  return {
    prepare: (query: string) => new LaggingStatement(query) as unknown as D1PreparedStatement,
    batch: <T>(statements: D1PreparedStatement[]) => {
      const lagging = statements as unknown as LaggingStatement[];
      // A batch is one transaction: on the copy when it only reads, else on the primary.
      const database = lagging.every((s) => isRead(s.query)) ? env.REPLICA : env.DB;
      return database.batch<T>(lagging.map((s) => s.on(database)));
    },
    getBookmark: () => null,
  } as unknown as D1DatabaseSession;
}

const tablesOf = async (database: D1Database) =>
  (
    await database
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'",
      )
      .all<{ name: string }>()
  ).results.map((t) => t.name);

/** The copy gets DB's schema, without its triggers: it only takes copies of rows. Once per test file. */
export async function prepareReplica(): Promise<void> {
  await applyD1Migrations(env.REPLICA, env.TEST_MIGRATIONS);
  const triggers = await env.REPLICA.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'").all<{
    name: string;
  }>();
  for (const { name } of triggers.results) await env.REPLICA.prepare(`DROP TRIGGER "${name}"`).run();
}

/** The replica catches up: it holds every row DB holds now, and nothing written after. */
export async function snapshot(): Promise<void> {
  const statements: D1PreparedStatement[] = [env.REPLICA.prepare("PRAGMA defer_foreign_keys = on")];
  for (const table of await tablesOf(env.DB)) {
    statements.push(env.REPLICA.prepare(`DELETE FROM "${table}"`));
    const [columns, ...rows] = await env.DB.prepare(`SELECT * FROM "${table}"`).raw({ columnNames: true });
    const insert = `INSERT INTO "${table}" (${columns!.map((c) => `"${c}"`).join(", ")}) VALUES (${columns!.map(() => "?").join(", ")})`;
    for (const row of rows)
      statements.push(
        env.REPLICA.prepare(insert).bind(...row.map((value) => (Array.isArray(value) ? new Uint8Array(value) : value))),
      );
  }
  await env.REPLICA.batch(statements);
}

/**
 * From now on (until vi.restoreAllMocks) every D1 session of DB but a "first-primary" one reads the
 * replica: the Worker's requests without a bookmark, and those with one too (a replica that lags
 * may well be newer than an old bookmark and still not have the newest write).
 */
export function lagBehind(): { opened: string[] } {
  const opened: string[] = [];
  const withSession = env.DB.withSession.bind(env.DB);
  vi.spyOn(env.DB, "withSession").mockImplementation((start) => {
    opened.push(String(start));
    return start === "first-primary" ? withSession(start) : laggingSession();
  });
  return { opened };
}
