/**
 * Loads demo data into the local D1, KV and R2 storage that `wrangler dev --persist-to <dir>`
 * (and the Vite plugin's persistState) serve.
 *
 *   tsx scripts/seed.ts [--reset] [--persist-to <dir>] [--profiles N] [--seed N]
 *   tsx scripts/seed.ts --country FI [--profiles N] [--site DOMAIN] [--persist-to <dir>] [--seed N]
 *
 * Without --reset an already seeded database is left alone. --reset empties it and loads it again,
 * but keeps the regions and towns (reference data) and puts back every site and company an
 * operator put (`npm run site -- put`, the console) that is not one of the demo's own.
 * --country adds N (default 60) demo members of one country to a database, after its last ids,
 * signed up on the country's demo site (or --site), and touches no other member or site.
 * Everything except the random R2 keys is the same on every run with the same --seed (relative to
 * today's date).
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import * as v from "valibot";
import { CompanyInfo, SiteSettings, companyKey, siteKey } from "../src/shared/settings";
import { renderPool } from "./demo/images";
import { applyLocalMigrations } from "./operator";
import { INTERESTS } from "./demo/interests";
import { startLoader, type Loader, type StoredObject } from "./demo/loader";
import { planPhotos, type PlannedPhoto } from "./demo/photos";
import { placeRows, placeStatements, readGeoNames } from "./demo/places";
import { generateCountryProfiles, generateProfiles, type DemoProfiles } from "./demo/profiles";
import { DEMO_COUNTRIES, PLACE_COUNTRIES, REGIONS, type DemoCountry } from "./demo/regions";
import { COMPANIES, SITE_FOR_COUNTRY, SITES } from "./demo/sites";
import { batches, insertStatements, type Statement } from "./demo/sql";

const STATEMENTS_PER_BATCH = 50;
const OBJECTS_PER_REQUEST = 150;
const REQUESTS_IN_FLIGHT = 4;

// No network: no Request.cf download and no telemetry from wrangler.
process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
process.env.WRANGLER_SEND_METRICS = "false";

async function runBatches(loader: Loader, statements: readonly Statement[]): Promise<void> {
  for (const batch of batches(statements, STATEMENTS_PER_BATCH)) await loader.d1(batch);
}

/**
 * The site settings go in last, so profiles without them mean an interrupted run, which is
 * loaded again from scratch.
 */
async function seedState(loader: Loader): Promise<{ profiles: number; places: number; complete: boolean }> {
  const [profileCount, placeCount] = await loader.d1([
    { sql: "SELECT count(*) AS n FROM profiles", params: [] },
    { sql: "SELECT count(*) AS n FROM places", params: [] },
  ]);
  const keys = new Set(await loader.kvKeys());
  return {
    profiles: Number(profileCount?.[0]?.n ?? 0),
    places: Number(placeCount?.[0]?.n ?? 0),
    complete: SITES.every((s) => keys.has(siteKey(s.domain))),
  };
}

/** Tables of reference data that every database has (migrations 0020 and 0034, `npm run places`): a reset keeps them. */
const REFERENCE_TABLES = ["d1_migrations", "interests", "regions", "places"];

/** The site and company settings in KV that are not the demo's own: what an operator put. */
async function operatorSettings(loader: Loader): Promise<{ key: string; value: string }[]> {
  const demo = new Set([...SITES.map((s) => siteKey(s.domain)), ...Object.keys(COMPANIES).map(companyKey)]);
  const keys = (await loader.kvKeys()).filter(
    (k) => (k.startsWith(siteKey("")) || k.startsWith(companyKey(""))) && !demo.has(k),
  );
  const entries = keys.length > 0 ? await loader.kvGet(keys) : [];
  return entries.flatMap(({ key, value }) => (value === null ? [] : [{ key, value }]));
}

/** Empties every table but the reference data (children before parents; the audit log too, locally), every R2 object and KV key, every Durable Object's storage. */
async function resetAll(loader: Loader, persistTo: string): Promise<void> {
  const [tableRows = [], fkRows = [], triggerRows = []] = await loader.d1([
    {
      sql: `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT IN (${REFERENCE_TABLES.map(() => "?").join(", ")})`,
      params: REFERENCE_TABLES,
    },
    {
      // D1's own tables (_cf_METADATA, made once sessions keep bookmarks) may not be read, not even their keys.
      sql: "SELECT m.name AS child, f.\"table\" AS parent FROM sqlite_master m JOIN pragma_foreign_key_list(m.name) f WHERE m.type = 'table' AND substr(m.name, 1, 4) <> '_cf_' AND substr(m.name, 1, 7) <> 'sqlite_'",
      params: [],
    },
    // Triggers such as the audit log's append-only guard refuse the deletes: each is dropped and
    // made again from its own text in the same batch.
    { sql: "SELECT name, sql FROM sqlite_master WHERE type = 'trigger'", params: [] },
  ]);
  const remaining = new Set(tableRows.map((r) => String(r.name)));
  const edges = fkRows.map((r) => ({ child: String(r.child), parent: String(r.parent) }));
  const order: string[] = [];
  while (remaining.size > 0) {
    const leaf = [...remaining].find(
      (t) => !edges.some((e) => e.parent === t && e.child !== t && remaining.has(e.child)),
    );
    const next = leaf ?? [...remaining][0]!;
    order.push(next);
    remaining.delete(next);
  }
  await loader.d1([
    // A cycle in the schema would still be safe: checks wait for the end of the batch.
    { sql: "PRAGMA defer_foreign_keys = ON", params: [] },
    ...triggerRows.map((r) => ({ sql: `DROP TRIGGER "${String(r.name)}"`, params: [] })),
    ...order.map((t) => ({ sql: `DELETE FROM "${t}"`, params: [] })),
    ...triggerRows.map((r) => ({ sql: String(r.sql), params: [] })),
  ]);
  await Promise.all([loader.r2Clear(), loader.kvClear()]);
  // Chat messages live in the conversations' Durable Objects (named after pairs of profile ids,
  // which a new seed reuses): their storage goes too. The demo data itself has no messages.
  rmSync(join(persistTo, "v3", "do"), { recursive: true, force: true });
}

async function loadSettings(loader: Loader): Promise<void> {
  const entries = [
    ...SITES.map((s) => ({ key: siteKey(s.domain), value: JSON.stringify(v.parse(SiteSettings, s)) })),
    ...Object.entries(COMPANIES).map(([id, c]) => ({
      key: companyKey(id),
      value: JSON.stringify(v.parse(CompanyInfo, c)),
    })),
  ];
  await loader.kvPut(entries);
}

/**
 * Real towns for the geocoder (GeoNames, CC BY 4.0) of the countries that have none yet, as
 * `npm run places -- load` loads them; the regions come with migration 0034. Returns how many.
 */
async function loadPlaces(loader: Loader, countries: readonly string[] = PLACE_COUNTRIES): Promise<number> {
  const [rows = []] = await loader.d1([{ sql: "SELECT DISTINCT country FROM places", params: [] }]);
  const loaded = new Set(rows.map((r) => String(r.country)));
  const missing = countries.filter((c) => !loaded.has(c));
  if (missing.length === 0) return 0;
  const places = placeRows(readGeoNames(missing));
  await runBatches(loader, placeStatements(places));
  return places.length;
}

/** The members' rows; the interests (0020) and regions (0034) are there already. */
async function loadMembers(loader: Loader, data: DemoProfiles, photos: readonly PlannedPhoto[]): Promise<void> {
  await runBatches(loader, [
    ...insertStatements(
      "users",
      [
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
      ],
      data.users,
    ),
    ...insertStatements(
      "profiles",
      [
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
      ],
      data.profiles,
    ),
    ...insertStatements("profile_interests", ["profile_id", "interest_id"], data.profileInterests),
    ...insertStatements(
      "photos",
      ["id", "profile_id", "key", "thumb_key", "blur_key", "status", "position", "width", "height", "created_at"],
      photos.map((p) => p.row),
    ),
  ]);
}

/** The towns the database lacks, then the members. Returns how many towns were added. */
async function loadRows(loader: Loader, data: DemoProfiles, photos: readonly PlannedPhoto[]): Promise<number> {
  const places = await loadPlaces(loader);
  await loadMembers(loader, data, photos);
  return places;
}

/**
 * Renders each pool portrait once, on worker threads, and sends the photos using it as soon as
 * it is ready, so rendering overlaps with the R2 writes in workerd.
 */
async function uploadImages(loader: Loader, photos: readonly PlannedPhoto[], seed: number): Promise<number> {
  const byImage = new Map<number, PlannedPhoto[]>();
  for (const p of photos) {
    const list = byImage.get(p.pool);
    if (list) list.push(p);
    else byImage.set(p.pool, [p]);
  }
  const inFlight: Promise<number>[] = [];
  let pack: StoredObject[] = [];
  let stored = 0;
  const send = async () => {
    if (pack.length > 0) inFlight.push(loader.r2Put(pack));
    pack = [];
    while (inFlight.length > REQUESTS_IN_FLIGHT) stored += await inFlight.shift()!;
  };
  await renderPool(
    seed,
    [...byImage.keys()].toSorted((a, b) => a - b),
    async (index, img) => {
      for (const { row } of byImage.get(index) ?? []) {
        pack.push(
          { key: row.key, bytes: img.original },
          { key: row.thumb_key, bytes: img.thumb },
          { key: row.blur_key, bytes: img.blur },
        );
      }
      if (pack.length >= OBJECTS_PER_REQUEST) await send();
    },
  );
  await send();
  for (const n of await Promise.all(inFlight)) stored += n;
  return stored;
}

/** The next ids of members (users and profiles share them) and photos no row has ever had (decision 0048), and the usernames in use. */
async function nextIds(loader: Loader): Promise<{ member: number; photo: number; taken: Set<string> }> {
  const highest = (tables: string[]) => ({
    sql: `SELECT max(n) AS n FROM (${tables.map((t) => `SELECT max(id) AS n FROM ${t}`).join(" UNION ALL ")} UNION ALL SELECT max(seq) FROM sqlite_sequence WHERE name IN (${tables.map(() => "?").join(", ")}))`,
    params: tables,
  });
  const [members = [], photos = [], names = []] = await loader.d1([
    highest(["users", "profiles"]),
    highest(["photos"]),
    { sql: "SELECT lower(username) AS k FROM users", params: [] },
  ]);
  return {
    member: Number(members[0]?.n ?? 0) + 1,
    photo: Number(photos[0]?.n ?? 0) + 1,
    taken: new Set(names.map((r) => String(r.k))),
  };
}

/** `--country XX`: demo members of one country added to whatever the database holds; no other member or site is touched. */
async function addCountry(
  loader: Loader,
  country: DemoCountry,
  options: { count: number; seed: number; site: string },
): Promise<string> {
  const keys = new Set(await loader.kvKeys());
  const demoSite = SITES.find((s) => s.domain === options.site);
  if (!keys.has(siteKey(options.site))) {
    if (!demoSite)
      throw new Error(`no settings for ${options.site}: put them first (npm run site -- put FILE --local)`);
    // The country's demo site (and its company) go in only when the database has none of them yet.
    const company = COMPANIES[demoSite.company_id];
    await loader.kvPut([
      { key: siteKey(demoSite.domain), value: JSON.stringify(v.parse(SiteSettings, demoSite)) },
      ...(company && !keys.has(companyKey(demoSite.company_id))
        ? [{ key: companyKey(demoSite.company_id), value: JSON.stringify(v.parse(CompanyInfo, company)) }]
        : []),
    ]);
  }
  const places = await loadPlaces(loader, [country]);
  const next = await nextIds(loader);
  const data = generateCountryProfiles(country, options.count, {
    firstId: next.member,
    seed: options.seed,
    site: options.site,
    taken: next.taken,
  });
  const photos = planPhotos(data.profiles, options.seed, next.photo);
  const [, objects] = await Promise.all([
    loadMembers(loader, data, photos),
    uploadImages(loader, photos, options.seed),
  ]);
  return (
    `Added ${data.profiles.length} ${country} members (ids ${next.member}-${next.member + data.profiles.length - 1}) ` +
    `on ${options.site}: ${photos.length} photos (${objects} R2 objects)${places ? `, ${places} places` : ""}.`
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      reset: { type: "boolean", default: false },
      "persist-to": { type: "string", default: ".wrangler/state" },
      profiles: { type: "string" },
      seed: { type: "string", default: "1" },
      country: { type: "string" },
      site: { type: "string" },
    },
  });
  const persistTo = values["persist-to"];
  const country = values.country?.toUpperCase();
  const count = Number(values.profiles ?? (country ? "60" : "2400"));
  const seed = Number(values.seed);
  if (!Number.isInteger(count) || count < 0)
    throw new Error(`--profiles must be a whole number, got ${values.profiles}`);
  if (country !== undefined && !(DEMO_COUNTRIES as readonly string[]).includes(country))
    throw new Error(
      `--country must be one of ${DEMO_COUNTRIES.join(", ")} (the countries with demo names), got ${values.country}`,
    );
  if (country !== undefined && values.reset) throw new Error("--country adds members; it cannot be used with --reset");
  if (values.site !== undefined && country === undefined) throw new Error("--site goes with --country");
  const started = performance.now();

  applyLocalMigrations(persistTo);
  const loader = await startLoader(persistTo);
  try {
    if (country !== undefined) {
      const site = values.site ?? SITE_FOR_COUNTRY[country as DemoCountry];
      console.info(await addCountry(loader, country as DemoCountry, { count, seed, site }));
      return;
    }
    const state = await seedState(loader);
    if (state.profiles > 0 && state.complete && !values.reset) {
      // A database seeded before some countries' towns came gets them without a reset.
      const added = await loadPlaces(loader);
      // The demo sites' settings follow the code (new fields such as pricing), whatever was seeded before.
      await loadSettings(loader);
      console.info(
        `Already seeded: ${state.profiles} profiles in ${persistTo}${added ? `; added ${added} places` : ""} (use --reset to reload).`,
      );
      return;
    }
    let kept: { key: string; value: string }[] = [];
    if (values.reset || state.profiles > 0) {
      if (!values.reset) console.info("Found an incomplete seed; loading it again.");
      kept = await operatorSettings(loader);
      await resetAll(loader, persistTo);
    }

    const data = generateProfiles(count, seed);
    const photos = planPhotos(data.profiles, seed);
    const [places, objects] = await Promise.all([loadRows(loader, data, photos), uploadImages(loader, photos, seed)]);
    await loadSettings(loader);
    if (kept.length > 0) await loader.kvPut(kept);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.info(
      `Seeded ${persistTo}: ${data.profiles.length} profiles, ${photos.length} photos (${objects} R2 objects), ` +
        `${REGIONS.length} regions, ${places} places, ${INTERESTS.length} interests, ${SITES.length} sites in ${seconds} s` +
        `${kept.length > 0 ? `; kept ${kept.map((e) => e.key).join(", ")}` : ""}.`,
    );
  } finally {
    await loader.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
