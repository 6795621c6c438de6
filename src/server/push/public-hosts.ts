/**
 * Whether a URL's host is a public address of the internet, for the push endpoints a member's
 * browser gives (docs/decisions/0025). The host is taken as the URL parser leaves it (lower case,
 * IDN as punycode, every IPv4 spelling as dotted decimal, IPv6 compressed) and as a resolver takes
 * it (one trailing dot is the root). Refused: names of local networks and reserved names, and every
 * address that is not global unicast in either family, including IPv6 forms that carry an IPv4
 * address (mapped, compatible, NAT64, 6to4 of a private address, Teredo).
 */

/** Reserved or local-network top-level names (RFC 2606, 6761, 6762, 8375, 9476, ICANN's name-collision list). */
const LOCAL_TOP_LEVEL = new Set([
  "localhost",
  "local",
  "internal",
  "test",
  "example",
  "invalid",
  "arpa",
  "alt",
  "onion",
  "localdomain",
  "lan",
  "home",
  "corp",
  "intranet",
  "private",
]);

/** IPv4 blocks that are not global unicast (IANA special-purpose registry), as [first address, prefix length]. */
const IPV4_NOT_PUBLIC: readonly [string, number][] = [
  ["0.0.0.0", 8], // this network, unspecified
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relays
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
];

function ipv4Number(text: string): number | null {
  const parts = text.split(".");
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return null;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

const IPV4_BLOCKS = IPV4_NOT_PUBLIC.map(([first, bits]) => ({ first: ipv4Number(first)!, size: 2 ** (32 - bits) }));

function isPublicIpv4(address: number): boolean {
  return !IPV4_BLOCKS.some((block) => address >= block.first && address < block.first + block.size);
}

/** The eight 16-bit groups of an IPv6 address (compressed, perhaps ending in dotted IPv4), or null. */
function ipv6Groups(text: string): number[] | null {
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groupsOf = (part: string): number[] | null => {
    if (part === "") return [];
    const out: number[] = [];
    const pieces = part.split(":");
    for (const [i, piece] of pieces.entries()) {
      if (i === pieces.length - 1 && piece.includes(".")) {
        const v4 = ipv4Number(piece);
        if (v4 === null) return null;
        out.push(Math.floor(v4 / 65536), v4 % 65536);
      } else if (/^[0-9a-f]{1,4}$/.test(piece)) out.push(parseInt(piece, 16));
      else return null;
    }
    return out;
  };
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  if (!head || !tail) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  return [...head, ...Array<number>(missing).fill(0), ...tail];
}

/**
 * Global unicast (2000::/3) less the blocks there that are not: IETF protocol assignments
 * (2001::/23, Teredo among them), documentation (2001:db8::/32, 3fff::/20) and 6to4 (2002::/16) of
 * an IPv4 address that is not public. Everything outside 2000::/3 is refused: unspecified, loopback,
 * IPv4-compatible and -mapped, NAT64 (64:ff9b::/96, 64:ff9b:1::/48), discard, unique-local,
 * site-local, link-local, multicast.
 */
function isPublicIpv6(g: number[]): boolean {
  const [g0, g1, g2] = g as [number, number, number];
  if ((g0 & 0xe000) !== 0x2000) return false;
  if (g0 === 0x2001 && g1 < 0x0200) return false;
  if (g0 === 0x2001 && g1 === 0x0db8) return false;
  if (g0 === 0x3fff && g1 < 0x1000) return false;
  if (g0 === 0x2002) return isPublicIpv4(g1 * 65536 + g2);
  return true;
}

/** A host name as a resolver takes it: one trailing dot dropped; null when a label is empty. */
function resolverName(hostname: string): string | null {
  const name = hostname.endsWith(".") ? hostname.slice(0, -1) : hostname;
  return name === "" || name.split(".").includes("") ? null : name;
}

/** Whether `hostname` (a URL's, as the URL parser gives it) names a public host of the internet. */
export function isPublicHost(hostname: string): boolean {
  if (hostname.startsWith("[")) {
    const groups = hostname.endsWith("]") ? ipv6Groups(hostname.slice(1, -1).toLowerCase()) : null;
    return groups !== null && isPublicIpv6(groups);
  }
  const name = resolverName(hostname.toLowerCase());
  if (name === null) return false;
  const v4 = ipv4Number(name);
  if (v4 !== null) return isPublicIpv4(v4);
  const labels = name.split(".");
  // A single label ("printer", "metadata") names a machine of a local network.
  return labels.length > 1 && !LOCAL_TOP_LEVEL.has(labels.at(-1)!);
}

/** Whether `hostname` is this machine (the push service stand-in of development and tests). */
export function isLoopbackHost(hostname: string): boolean {
  if (hostname.startsWith("[")) {
    const groups = hostname.endsWith("]") ? ipv6Groups(hostname.slice(1, -1).toLowerCase()) : null;
    return groups !== null && groups.slice(0, 7).every((n) => n === 0) && groups[7] === 1;
  }
  const name = resolverName(hostname.toLowerCase());
  if (name === null) return false;
  const v4 = ipv4Number(name);
  return v4 !== null ? Math.floor(v4 / 2 ** 24) === 127 : name === "localhost";
}
