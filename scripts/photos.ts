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
import { fail, operatorArgs, wrangler } from "./operator";

const { positionals, target } = operatorArgs();
const [command, ...rest] = positionals;
if (command !== "pending" && command !== "approve" && command !== "reject") fail("usage: photos pending | approve <id...> | reject <id...> [--local | --remote] [--env NAME]");
const where = target();
const ids = rest.map(Number);
if (command !== "pending" && (ids.length === 0 || ids.some((id) => !Number.isInteger(id) || id < 1))) fail("give the photo ids to change");

const d1 = (sql: string) => wrangler(["d1", "execute", "DB", ...where, "--json", "--command", sql]);

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
