import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import * as schema from "./schema";

/** The database every query of src/server/db/ runs on: drizzle over the D1 binding, with the schema. */
export type Database = DrizzleD1Database<typeof schema> & { $client: D1Database };

/**
 * One drizzle database per D1 binding, made at its first use: building one works out the relations
 * of every table of the schema, which is worth doing once per isolate, not on every request, send
 * or announcement. It holds nothing but the binding and the schema.
 */
const databases = new WeakMap<D1Database, Database>();

/** The drizzle database over a D1 binding. */
export function databaseOf(d1: D1Database): Database {
  let db = databases.get(d1);
  if (!db) {
    db = drizzle(d1, { schema });
    databases.set(d1, db);
  }
  return db;
}
