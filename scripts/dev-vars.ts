/**
 * Makes .dev.vars (local secrets, never committed) on a fresh checkout: a random SESSION_SECRET so
 * that `npm start` signs sessions without anyone having to set one up. Leaves an existing file alone.
 */
import { existsSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";

const FILE = ".dev.vars";
if (!existsSync(FILE)) {
  writeFileSync(FILE, `SESSION_SECRET="${randomBytes(32).toString("base64url")}"\nMAIL_API_KEY=""\nMOLLIE_API_KEY=""\nSMS_API_KEY=""\nMAIL_WEBHOOK_SECRET="whsec_${randomBytes(32).toString("base64")}"\n`);
  console.info(`${FILE}: made with a new random SESSION_SECRET`);
}
