/**
 * A local state directory with many demo members for the search benchmark: migrations, regions,
 * interests, users, profiles and their interests (no photos) and the demo sites' settings in KV,
 * written in bulk through the seed's loader Worker (multi-row INSERTs in D1 batches).
 */
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import * as v from "valibot";
import { startLoader, type Loader } from "../scripts/demo/loader";
import type { DemoProfiles } from "../scripts/demo/profiles";
import { COMPANIES, SITES } from "../scripts/demo/sites";
import { batches, insertStatements, type Statement } from "../scripts/demo/sql";
import { CompanyInfo, SiteSettings, companyKey, siteKey } from "../src/shared/settings";

/** Statements per D1 batch (one transaction) and batches sent before waiting for the oldest. */
const STATEMENTS_PER_BATCH = 250;
const BATCHES_IN_FLIGHT = 2;

const USER_COLUMNS = [
  "id",
  "email",
  "username",
  "password_hash",
  "status",
  "credits",
  "paid_user",
  "language",
  "site_domain",
  "signup_date",
  "last_active_at",
] as const;
const PROFILE_COLUMNS = [
  "id",
  "user_id",
  "name",
  "country",
  "gender",
  "sexuality",
  "birth_date",
  "tattoos",
  "hair_color",
  "eye_color",
  "body_type",
  "relationship_status",
  "region_id",
  "city",
  "about_me",
  "main_photo_id",
  "status",
  "fictional",
  "searchable",
  "last_active_at",
  "created_at",
  "has_photo",
] as const;

/**
 * No photo rows are loaded, so the photo-first flag is written directly: four members in five with a
 * public main photo, about the demo data's share, so searches read both parts of each index range.
 */
const withPhotoFlag = (profiles: DemoProfiles["profiles"]) =>
  profiles.map((p) => ({ ...p, has_photo: p.id % 5 === 0 ? 0 : 1 }));

function applyMigrations(persistTo: string): void {
  try {
    execFileSync(
      "wrangler",
      ["d1", "migrations", "apply", "DB", "--local", "--config", "wrangler.toml", "--persist-to", persistTo],
      {
        env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
  } catch (e) {
    const err = e as { stdout?: Buffer; stderr?: Buffer };
    process.stderr.write(err.stdout ?? "");
    process.stderr.write(err.stderr ?? "");
    throw new Error(`applying the D1 migrations to ${persistTo} failed`, { cause: e });
  }
}

/** Sends the statements in batches, keeping a few batches in flight so building JSON overlaps with SQLite's work. */
async function runBatches(loader: Loader, statements: readonly Statement[]): Promise<void> {
  const inFlight: Promise<unknown>[] = [];
  for (const batch of batches(statements, STATEMENTS_PER_BATCH)) {
    inFlight.push(loader.d1(batch));
    if (inFlight.length >= BATCHES_IN_FLIGHT) await inFlight.shift();
  }
  await Promise.all(inFlight);
}

/** The first `count` members of `data` (generateProfiles numbers them 1..N, the same for any N). */
export function firstMembers(data: DemoProfiles, count: number): DemoProfiles {
  return {
    users: data.users.slice(0, count),
    profiles: data.profiles.slice(0, count),
    profileInterests: data.profileInterests.filter((r) => r.profile_id <= count),
  };
}

/** Empties `persistTo` and loads `data` into it; resolves with the seconds it took. */
export async function loadSearchState(persistTo: string, data: DemoProfiles): Promise<number> {
  const started = performance.now();
  // No network from the loader's wrangler: no Request.cf download and no telemetry.
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
  process.env.WRANGLER_SEND_METRICS = "false";
  rmSync(persistTo, { recursive: true, force: true });
  applyMigrations(persistTo);
  const loader = await startLoader(persistTo);
  try {
    // The interests (0020) and the regions (0034) come with the migrations.
    // Parents before children: the foreign keys are checked at the end of each batch.
    await runBatches(loader, insertStatements("users", USER_COLUMNS, data.users));
    await runBatches(loader, insertStatements("profiles", PROFILE_COLUMNS, withPhotoFlag(data.profiles)));
    await runBatches(
      loader,
      insertStatements("profile_interests", ["profile_id", "interest_id"], data.profileInterests),
    );
    await loader.kvPut([
      ...SITES.map((s) => ({ key: siteKey(s.domain), value: JSON.stringify(v.parse(SiteSettings, s)) })),
      ...Object.entries(COMPANIES).map(([id, c]) => ({
        key: companyKey(id),
        value: JSON.stringify(v.parse(CompanyInfo, c)),
      })),
    ]);
    const [rows] = await loader.d1([{ sql: "SELECT count(*) AS n FROM profiles", params: [] }]);
    const loaded = Number(rows?.[0]?.n);
    if (loaded !== data.profiles.length)
      throw new Error(`${persistTo}: ${loaded} profiles loaded, expected ${data.profiles.length}`);
  } finally {
    await loader.stop();
  }
  return (performance.now() - started) / 1000;
}
