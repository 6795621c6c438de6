import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import * as schema from "./schema";

/** The database every query of src/server/db/ runs on: drizzle over the D1 binding, with the schema. */
export type Database = DrizzleD1Database<typeof schema> & { $client: D1Database };

/** The drizzle database over a D1 binding (one per request, or per Durable Object). */
export function databaseOf(d1: D1Database): Database {
  return drizzle(d1, { schema });
}
