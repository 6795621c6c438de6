/**
 * The VAPID key pair of development and tests, committed on purpose so the demo sites, the tests and
 * every developer's .dev.vars agree. It signs pushes to no real browser: a deployment makes its own
 * pair with `npm run vapid` (README, "Web push").
 */
export const DEVELOPMENT_VAPID = {
  /** The site setting push_public_key: base64url of the uncompressed P-256 point. */
  publicKey: "BFSyWhI_gMYkzjKtFmzx5b8byb8TfgqrwVqNawohj1eQlSlYxdIU4ME065_29ivSH4VPOkyw7qnQEGYAN8B6nKI",
  /** The secret VAPID_PRIVATE_KEY: base64url of the private scalar d. */
  privateKey: "qdboD33FR3LF9X7MbWOyskirIZWjfeuvHrBegVe1qzw",
};
