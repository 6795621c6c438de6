/**
 * Cloudflare Access in front of the console: every request carries the application token in
 * `Cf-Access-Jwt-Assertion`, which the Worker verifies itself (never trusting the header's presence):
 * RS256 signature by a key of the team's JWKS at <team domain>/cdn-cgi/access/certs, `iss` the team
 * domain, `aud` the application's AUD tag, not expired. The operator is the token's `email`.
 * https://developers.cloudflare.com/cloudflare-one/access-controls/applications/http-apps/authorization-cookie/validating-json/
 */
import { createRemoteJWKSet, jwtVerify } from "jose";

export const ACCESS_HEADER = "cf-access-jwt-assertion";

/** The team's key sets, one per team domain, kept by the isolate: jose caches the keys and fetches again on an unknown key id. */
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

function keySetOf(teamDomain: string) {
  let keys = keySets.get(teamDomain);
  if (!keys) {
    keys = createRemoteJWKSet(new URL(`${teamDomain}/cdn-cgi/access/certs`), { timeoutDuration: 5000 });
    keySets.set(teamDomain, keys);
  }
  return keys;
}

/** The team domain as Access writes it in `iss`: https://<team>.cloudflareaccess.com, no trailing slash. */
function teamDomainOf(value: string): string {
  return value.trim().replace(/\/+$/, "");
}

/**
 * The e-mail address an Access token vouches for, or null when the token does not verify (bad
 * signature, other issuer or audience, expired, no e-mail: a service token is not an operator) or
 * Access is not configured.
 */
export async function accessEmail(
  env: Pick<Env, "ACCESS_TEAM_DOMAIN" | "ACCESS_AUD">,
  token: string,
): Promise<string | null> {
  const teamDomain = teamDomainOf(env.ACCESS_TEAM_DOMAIN ?? "");
  const audience = (env.ACCESS_AUD ?? "").trim();
  if (!teamDomain || !audience) return null;
  try {
    const { payload } = await jwtVerify(token, keySetOf(teamDomain), {
      issuer: teamDomain,
      audience,
      algorithms: ["RS256"],
    });
    return typeof payload.email === "string" && payload.email.includes("@") ? payload.email : null;
  } catch (error) {
    console.warn(
      JSON.stringify({
        event: "access_token_refused",
        reason: error instanceof Error ? ((error as { code?: string }).code ?? error.message) : String(error),
      }),
    );
    return null;
  }
}
