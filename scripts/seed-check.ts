/**
 * Reopens the local storage through wrangler's getPlatformProxy (the way the app's tooling sees
 * it) and prints what the seed left there: rows per table, R2 objects, KV keys, and whether a
 * sample of photo rows point at readable JPEGs.
 *
 *   tsx scripts/seed-check.ts [--persist-to <dir>]
 */
import type { D1Database, KVNamespace, R2Bucket } from "@cloudflare/workers-types";
import { parseArgs } from "node:util";
import { join, resolve } from "node:path";
import { getPlatformProxy } from "wrangler";

interface Env {
  DB: D1Database;
  SETTINGS: KVNamespace;
  PHOTOS: R2Bucket;
}

process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";

async function countObjects(bucket: R2Bucket): Promise<number> {
  let count = 0;
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ limit: 1000, ...(cursor ? { cursor } : {}) });
    count += page.objects.length;
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return count;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { "persist-to": { type: "string", default: ".wrangler/state" } } });
  // `wrangler dev --persist-to X` keeps its data in X/v3; getPlatformProxy takes that v3 path itself.
  const proxy = await getPlatformProxy<Env>({
    configPath: "wrangler.toml",
    persist: { path: join(resolve(values["persist-to"]), "v3") },
    remoteBindings: false,
  });
  try {
    const { DB, SETTINGS, PHOTOS } = proxy.env;
    const tables = await DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY name",
    ).all<{ name: string }>();
    const counts: Record<string, number> = {};
    for (const { name } of tables.results) {
      counts[name] = (await DB.prepare(`SELECT count(*) AS n FROM "${name}"`).first<number>("n")) ?? 0;
    }
    console.info("rows", counts);
    console.info("r2 objects", await countObjects(PHOTOS));
    console.info(
      "kv keys",
      (await SETTINGS.list()).keys.map((k) => k.name),
    );

    const sample = await DB.prepare("SELECT key, thumb_key, blur_key FROM photos ORDER BY random() LIMIT 20").all<{
      key: string;
      thumb_key: string;
      blur_key: string;
    }>();
    let ok = 0;
    for (const row of sample.results) {
      for (const key of [row.key, row.thumb_key, row.blur_key]) {
        const obj = await PHOTOS.get(key);
        const head = obj ? new Uint8Array(await obj.arrayBuffer()).subarray(0, 2) : undefined;
        if (obj?.httpMetadata?.contentType === "image/jpeg" && head?.[0] === 0xff && head[1] === 0xd8) ok++;
      }
    }
    console.info(`sampled photo objects readable as JPEG: ${ok}/${sample.results.length * 3}`);
  } finally {
    await proxy.dispose();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
