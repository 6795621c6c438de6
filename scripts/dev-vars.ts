/**
 * Makes .dev.vars (local secrets, never committed) on a fresh checkout: a random SESSION_SECRET so
 * that `npm start` signs sessions without anyone having to set one up, and the development VAPID
 * key (the demo sites carry its public half). An existing file is left alone, but gets the VAPID key
 * when it has none.
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { DEVELOPMENT_VAPID } from "./demo/vapid-keys";

const FILE = ".dev.vars";
const VAPID = `VAPID_PRIVATE_KEY="${DEVELOPMENT_VAPID.privateKey}"\n`;
if (!existsSync(FILE)) {
  writeFileSync(
    FILE,
    `SESSION_SECRET="${randomBytes(32).toString("base64url")}"\nMAIL_API_KEY=""\nMOLLIE_API_KEY=""\nMOLLIE_WEBHOOK_SECRET=""\nSMS_API_KEY=""\nSMS_WEBHOOK_SECRET=""\nMAIL_SES_SECRET_ACCESS_KEY=""\nMAIL_WEBHOOK_SECRET="whsec_${randomBytes(32).toString("base64")}"\nDSA_TDB_TOKEN=""\n${VAPID}`,
  );
  console.info(`${FILE}: made with a new random SESSION_SECRET`);
} else if (!/^VAPID_PRIVATE_KEY=/m.test(readFileSync(FILE, "utf8"))) {
  appendFileSync(FILE, `${readFileSync(FILE, "utf8").endsWith("\n") ? "" : "\n"}${VAPID}`);
  console.info(`${FILE}: added the development VAPID_PRIVATE_KEY`);
}
