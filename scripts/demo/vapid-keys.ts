/**
 * The VAPID key pair of development and tests, committed on purpose so the demo sites, the tests and
 * every developer's .dev.vars agree. It signs pushes to no real browser: a deployment makes its own
 * pair with `npm run vapid` (README, "Web push").
 */
import { DEVELOPMENT_PUSH_PUBLIC_KEY } from "../../src/shared/site-rules";

export const DEVELOPMENT_VAPID = {
  /** The site setting push_public_key: base64url of the uncompressed P-256 point. */
  publicKey: DEVELOPMENT_PUSH_PUBLIC_KEY,
  /** The secret VAPID_PRIVATE_KEY: base64url of the private scalar d. */
  privateKey: "qdboD33FR3LF9X7MbWOyskirIZWjfeuvHrBegVe1qzw",
};
