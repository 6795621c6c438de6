/**
 * Which push endpoints the Worker will post to. A subscription comes from the member's browser, so
 * its endpoint is input: only https to a public host, else a member could make the Worker post to
 * addresses of its own network. Loopback is allowed in development and tests, where the push
 * service stand-in listens on 127.0.0.1. What counts as public: public-hosts.ts.
 */
import { isLoopbackHost, isPublicHost } from "./public-hosts";

/**
 * Whether the Worker may post pushes to `endpoint`: always https (RFC 8030 §2; the push library
 * refuses anything else), to a public host, or in `development` to loopback.
 */
export function isAllowedPushEndpoint(endpoint: string, development: boolean): boolean {
  if (!URL.canParse(endpoint)) return false;
  const url = new URL(endpoint);
  if (url.username || url.password || url.protocol !== "https:") return false;
  return (development && isLoopbackHost(url.hostname)) || isPublicHost(url.hostname);
}

/**
 * Where the request for an allowed `endpoint` goes: the endpoint itself, except that in development
 * a loopback endpoint is reached over plain http, because the local stand-in speaks http (it has no
 * certificate). The VAPID token's audience stays the https origin the browser subscribed with.
 */
export function pushServiceAddress(endpoint: string, development: boolean): string {
  const url = new URL(endpoint);
  if (!development || !isLoopbackHost(url.hostname) || url.protocol !== "https:") return endpoint;
  url.protocol = "http:";
  return url.toString();
}
