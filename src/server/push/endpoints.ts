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

/**
 * Whether the Worker may post pushes to `endpoint`: always https (RFC 8030 §2; the push library
 * refuses anything else), to a public host, or in `development` to loopback.
 */
export function isAllowedPushEndpoint(endpoint: string, development: boolean): boolean {
  if (!URL.canParse(endpoint)) return false;
  const url = new URL(endpoint);
  if (url.username || url.password || url.protocol !== "https:") return false;
  return (development && isLoopback(url.hostname)) || !isPrivateHost(url.hostname);
}

/**
 * Where the request for an allowed `endpoint` goes: the endpoint itself, except that in development
 * a loopback endpoint is reached over plain http, because the local stand-in speaks http (it has no
 * certificate). The VAPID token's audience stays the https origin the browser subscribed with.
 */
export function pushServiceAddress(endpoint: string, development: boolean): string {
  const url = new URL(endpoint);
  if (!development || !isLoopback(url.hostname) || url.protocol !== "https:") return endpoint;
  url.protocol = "http:";
  return url.toString();
}
