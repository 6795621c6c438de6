/**
 * Photo moderation for operators. Uploads start pending (visible to their owner only) and become
 * public once approved (SPEC §3: status active).
 *
 *   npm run photos -- pending [--local | --remote --env production]
 *   npm run photos -- approve 12 13 [--local | --remote ...]
 *   npm run photos -- reject 14 [--local | --remote ...]
 *
 * Locally (--local) it works on the state `npm start` serves (.wrangler/state, or --persist-to).
 */
import { execFileSync } from "node:child_process";
import { parseArgs } from "node:util";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    local: { type: "boolean", default: false },
    remote: { type: "boolean", default: false },
    env: { type: "string" },
    "persist-to": { type: "string", default: ".wrangler/state" },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const [command, ...rest] = positionals;
if (command !== "pending" && command !== "approve" && command !== "reject") fail("usage: photos pending | approve <id...> | reject <id...> [--local | --remote] [--env NAME]");
if (values.local === values.remote) fail("say where: --local or --remote");
const ids = rest.map(Number);
if (command !== "pending" && (ids.length === 0 || ids.some((id) => !Number.isInteger(id) || id < 1))) fail("give the photo ids to change");

const target = values.local ? ["--local", "--persist-to", values["persist-to"]!] : ["--remote"];
const env = values.env ? ["--env", values.env] : [];

function d1(sql: string): string {
  return execFileSync("wrangler", ["d1", "execute", "DB", ...target, ...env, "--json", "--command", sql], {
    encoding: "utf8",
    env: { ...process.env, CI: "true", CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" },
  });
}

if (command === "pending") {
  const [result] = JSON.parse(d1(
    "SELECT ph.id, ph.profile_id, p.name, ph.width, ph.height, datetime(ph.created_at, 'unixepoch') AS uploaded, ph.key FROM photos ph JOIN profiles p ON p.id = ph.profile_id WHERE ph.status = 'pending' ORDER BY ph.id LIMIT 200",
  )) as [{ results: Record<string, unknown>[] }];
  if (result.results.length === 0) console.info("No photos are waiting.");
  else for (const row of result.results) console.info(Object.values(row).join("\t"));
} else {
  const status = command === "approve" ? "active" : "rejected";
  // Only pending photos change: an approved photo is not rejected by a typo in the ids, nor the other way.
  d1(`UPDATE photos SET status = '${status}' WHERE status = 'pending' AND id IN (${ids.join(",")})`);
  console.info(`${ids.length} photo(s) ${status === "active" ? "approved" : "rejected"} (those that were pending).`);
}
