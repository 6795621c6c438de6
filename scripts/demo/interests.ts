/**
 * The interests a profile can pick, as migration 0020 writes them into every database (their names
 * are in locales/, under interest_names): the demo data picks from the same rows.
 */
import { readFileSync } from "node:fs";

export interface Interest {
  /** Row id in the interests table. */
  id: number;
  slug: string;
}

const MIGRATION = new URL("../../migrations/0020_interests_reference.sql", import.meta.url);

export const INTERESTS: readonly Interest[] = [
  ...readFileSync(MIGRATION, "utf8").matchAll(/\((\d+), '([a-z0-9-]+)', \d+\)/g),
].map((m) => ({ id: Number(m[1]), slug: m[2]! }));

if (INTERESTS.length === 0) throw new Error("no interests found in migration 0020");
