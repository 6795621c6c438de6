/**
 * Photo moderation from the command line, through the console (scripts/console-client.ts,
 * docs/decisions/0035): the same decisions, audit rows and statements of reasons as its Photos screen.
 * Uploads start pending (visible to their owner only) and become public once approved.
 *
 *   npm run photos -- pending --local --as you@example.com
 *   npm run photos -- approve 12 13 --local --as you@example.com
 *   npm run photos -- reject 14 --ground explicit_content [--note "what the member reads"] --local --as ...
 *   (--remote --console https://<console host> with CF_ACCESS_TOKEN for production)
 */
import { PHOTO_GROUNDS } from "../src/shared/moderation";
import { consoleClient } from "./console-client";
import { fail } from "./operator";

const USAGE = `usage: photos pending | approve <id...> | reject <id...> --ground ${PHOTO_GROUNDS.join("|")} [--note TEXT]  (--local --as <operator> | --remote --console URL)`;
const { client, positionals, option } = await consoleClient(["ground", "note"]);
const [command, ...rest] = positionals;
if (command !== "pending" && command !== "approve" && command !== "reject") fail(USAGE);
const ids = rest.map(Number);
if (command !== "pending" && (ids.length === 0 || ids.some((id) => !Number.isInteger(id) || id < 1)))
  fail(`give the photo ids\n${USAGE}`);

if (command === "pending") {
  const { photos } = await client.get<{
    photos: { id: number; profileId: number; name: string; width: number; height: number; createdAt: number }[];
  }>("/photos");
  if (photos.length === 0) console.info("No photos are waiting.");
  for (const photo of photos)
    console.info(
      [
        photo.id,
        photo.profileId,
        photo.name,
        photo.width,
        photo.height,
        new Date(photo.createdAt * 1000).toISOString(),
      ].join("\t"),
    );
} else {
  const ground = option("ground");
  if (command === "reject" && !(PHOTO_GROUNDS as readonly string[]).includes(ground ?? ""))
    fail(`give --ground, one of ${PHOTO_GROUNDS.join(", ")}`);
  let failed = 0;
  for (const id of ids) {
    try {
      await client.post(
        `/photos/${id}/${command}`,
        command === "reject" ? { ground: ground!, facts: option("note") ?? "" } : {},
      );
      console.info(`photo ${id}: ${command === "approve" ? "approved" : "rejected"}`);
    } catch (error) {
      failed++;
      console.error(`photo ${id}: ${(error as Error).message}`);
    }
  }
  if (failed) process.exit(1);
}
