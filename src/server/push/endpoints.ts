/**
 * Which push endpoints the Worker will post to. A subscription comes from the member's browser, so
 * its endpoint is input: only https to a public host, else a member could make the Worker post to
 * addresses of its own network. Loopback is allowed in development and tests, where the push
 * service stand-in listens on 127.0.0.1.
 */

const PRIVATE_IPV4 = [/^127\./, /^10\./, /^192\.168\./, /^172\.(1[6-9]|2\d|3[01])\./, /^169\.254\./, /^0\./, /^100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\./];

function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local") || host.endsWith(".internal")) return true;
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) return PRIVATE_IPV4.some((range) => range.test(host));
  if (host.includes(":")) return host === "::" || host === "::1" || /^f[cd]/.test(host) || /^fe[89ab]/.test(host) || host.startsWith("::ffff:");
  // A single label ("printer") names a machine of a local network.
  return !host.includes(".");
}

const isLoopback = (hostname: string) => /^127\.\d+\.\d+\.\d+$/.test(hostname) || hostname === "[::1]" || hostname === "localhost";

/** Whether the Worker may post pushes to `endpoint`; `development` allows http and loopback. */
export function isAllowedPushEndpoint(endpoint: string, development: boolean): boolean {
  if (!URL.canParse(endpoint)) return false;
  const url = new URL(endpoint);
  if (url.username || url.password) return false;
  if (development && isLoopback(url.hostname)) return url.protocol === "https:" || url.protocol === "http:";
  return url.protocol === "https:" && !isPrivateHost(url.hostname);
}
