import { AsyncLocalStorage } from "node:async_hooks";
import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import { isNewerBookmark } from "../../shared/d1-bookmark";
import * as schema from "./schema";

/** What the queries of src/server/db/ need of D1: a binding (always the primary) or one of its sessions. */
export type D1Client = Pick<D1Database, "prepare" | "batch">;

/** The database every query of src/server/db/ runs on: drizzle over D1, with the schema. */
export type Database = DrizzleD1Database<typeof schema> & { $client: D1Client };

/**
 * A D1 session (the Sessions API, docs/decisions/0033) that can be moved on to a newer bookmark: its
 * reads may go to a replica, but never to one older than the newest bookmark it was given or its
 * own writes and reads returned. Bookmarks sort as text, oldest first (D1's glossary).
 */
export class D1Reads implements D1Client {
  private session: D1DatabaseSession;

  constructor(
    readonly binding: D1Database,
    start: string | null,
    /** Where the session's first query goes when no bookmark is given: any copy, or the primary. */
    readonly constraint: D1SessionConstraint = "first-unconstrained",
  ) {
    this.session = binding.withSession(start ?? constraint);
  }

  prepare(query: string): D1PreparedStatement {
    return this.session.prepare(query);
  }

  batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    return this.session.batch<T>(statements);
  }

  /** The newest bookmark of this session: what a later session must start from to see its writes. */
  bookmark(): string | null {
    return this.session.getBookmark();
  }

  /** Reads from now on see at least what `bookmark` names (a member's page or another object wrote). */
  catchUp(bookmark: string | null | undefined): void {
    if (isNewerBookmark(bookmark, this.bookmark())) this.session = this.binding.withSession(bookmark);
  }
}

/** The D1 session of the request being answered (set by the Worker's `db` middleware, withReads). */
const requestReads = new AsyncLocalStorage<D1Reads>();

/** Run `work` with the queries of every database over `reads.binding` going through `reads`. */
export function withReads<T>(reads: D1Reads, work: () => T): T {
  return requestReads.run(reads, work);
}

/** The newest bookmark of the request being answered (for the objects it calls after its writes), if any. */
export function requestBookmark(): string | null {
  return requestReads.getStore()?.bookmark() ?? null;
}

/**
 * The client of a binding's one drizzle database: each query goes to the session of the request it
 * runs for (withReads), or to the binding itself (the primary) outside one: the clock work, and
 * objects that keep no session of their own.
 */
function clientOf(binding: D1Database): D1Client {
  const current = (): D1Client => {
    const reads = requestReads.getStore();
    return reads?.binding === binding ? reads : binding;
  };
  return {
    prepare: (query) => current().prepare(query),
    batch: (statements) => current().batch(statements),
  };
}

/**
 * One drizzle database per D1 binding, made at its first use: building one works out the relations
 * of every table of the schema, which is worth doing once per isolate, not on every request, send
 * or notice (docs/decisions/0023). Sessions do not change that: the request's session is
 * found by the client at each query (clientOf), so no request builds a database of its own.
 */
const databases = new WeakMap<D1Database, Database>();

/** The drizzle database over a D1 binding. */
export function databaseOf(d1: D1Database): Database {
  let db = databases.get(d1);
  if (!db) {
    db = drizzle(clientOf(d1) as D1Database, { schema }) as Database;
    databases.set(d1, db);
  }
  return db;
}

/**
 * A drizzle database over an object's own session (a conversation's, a member channel's), made once
 * when the object starts: its reads follow the bookmarks it is given and its own writes.
 */
export function databaseOver(reads: D1Reads): Database {
  return drizzle(reads as unknown as D1Database, { schema }) as Database;
}
