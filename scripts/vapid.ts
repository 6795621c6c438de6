/**
 * `npm run vapid`: a new VAPID key pair (RFC 8292) for one deployment. The private key becomes the
 * secret VAPID_PRIVATE_KEY (`wrangler secret put VAPID_PRIVATE_KEY --env production`), the public
 * key the `push_public_key` of every site of that deployment (`npm run site -- put ...`). Changing
 * the pair later strands every existing subscription: browsers must subscribe again.
 */
import { webcrypto } from "node:crypto";

const pair = await webcrypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
const { d } = await webcrypto.subtle.exportKey("jwk", pair.privateKey);
const publicKey = Buffer.from(await webcrypto.subtle.exportKey("raw", pair.publicKey)).toString("base64url");
console.info(`VAPID_PRIVATE_KEY (secret): ${d}\npush_public_key (site setting): ${publicKey}`);
