/**
 * A stand-in of Cloudflare Access on loopback, as "Validate JWTs" describes it
 * (https://developers.cloudflare.com/cloudflare-one/access-controls/applications/http-apps/authorization-cookie/validating-json/):
 * - GET /cdn-cgi/access/certs answers the team's keys: `keys` (both in JWK form: the current signing
 *   key and the previous one, which stays valid after a rotation), `public_cert` and `public_certs`
 *   (their public keys in PEM, each with its kid).
 * - Access's application token is an RS256 JWT with the key's `kid` in its header and the claims
 *   aud (an array of AUD tags), email, exp, iat, nbf, iss (the team domain, this origin here), type
 *   "app", identity_nonce, sub and country.
 * - POST /_stand-in/token { email?, aud?, iss?, exp?, nbf?, key? } signs such a token for a test: `key`
 *   "current" (default), "previous" (rotated out, still published) or "foreign" (never published).
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey } from "jose";
import { answerJson as answer, bodyText, onLoopback } from "./stand-in-server";

/** The AUD tag of the console's Access application in the tests. */
export const ACCESS_AUD = "4714c1358e65fe4b408ad6d432a5f878f08194bdb4752441fd56faefa9b2b6f2";

type SigningKey = { kid: string; privateKey: CryptoKey; publicKey: CryptoKey };

async function signingKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  return { kid: randomUUID().replaceAll("-", ""), privateKey, publicKey };
}

export type TokenRequest = {
  email?: string;
  aud?: string | string[];
  iss?: string;
  exp?: number;
  nbf?: number;
  key?: "current" | "previous" | "foreign";
};

export function createAccessStandIn() {
  let origin = "";
  const keys = Promise.all([signingKey(), signingKey(), signingKey()]).then(([current, previous, foreign]) => ({
    current: current!,
    previous: previous!,
    foreign: foreign!,
  }));
  const server = createServer(async (req, res) => {
    const raw = await bodyText(req);
    const path = new URL(req.url ?? "/", "http://stand-in").pathname;
    const { current, previous, foreign } = await keys;
    if (path === "/cdn-cgi/access/certs" && req.method === "GET") {
      const published = [current, previous];
      return answer(res, 200, {
        keys: await Promise.all(
          published.map(async (key) => ({
            ...(await exportJWK(key.publicKey)),
            kid: key.kid,
            alg: "RS256",
            use: "sig",
          })),
        ),
        public_cert: { kid: current.kid, cert: await exportSPKI(current.publicKey) },
        public_certs: await Promise.all(
          published.map(async (key) => ({ kid: key.kid, cert: await exportSPKI(key.publicKey) })),
        ),
      });
    }
    if (path === "/_stand-in/token" && req.method === "POST") {
      const asked = JSON.parse(raw || "{}") as TokenRequest;
      const now = Math.floor(Date.now() / 1000);
      const key = { current, previous, foreign }[asked.key ?? "current"];
      const token = await new SignJWT({
        email: asked.email ?? "operator@flirtwave.test",
        type: "app",
        identity_nonce: randomUUID(),
        country: "NL",
      })
        .setProtectedHeader({ alg: "RS256", kid: key.kid })
        .setAudience(asked.aud ?? [ACCESS_AUD])
        .setIssuer(asked.iss ?? origin)
        .setSubject(randomUUID())
        .setIssuedAt(now)
        .setNotBefore(asked.nbf ?? now)
        .setExpirationTime(asked.exp ?? now + 24 * 60 * 60)
        .sign(key.privateKey);
      return answer(res, 200, { token });
    }
    return answer(res, 404, { error: "not_found" });
  });
  return onLoopback(server, (started) => (origin = started));
}
