// Which hosts a webhook may be sent to (DESIGN 6b): pure rules over a URL's hostname, which the
// URL parser has already normalised (IPv4 in any spelling to dotted decimal, IPv6 lowercased
// in brackets, a zone id refused).

/**
 * Refused IPv4 blocks: the IANA IPv4 Special-Purpose Address Registry, every entry, and
 * multicast. The registry marks a few globally reachable (192.0.0.9/32 PCP anycast and
 * 192.0.0.10/32 TURN anycast inside 192.0.0.0/24, 192.31.196.0/24 AS112-v4, 192.52.193.0/24
 * AMT); they are refused too: anycast services that answer at the instance nearest the sender,
 * never a webhook receiver, so refusing them costs no one and keeps the table the registry's.
 */
export const REFUSED_IPV4_BLOCKS: readonly (readonly [cidr: string, name: string])[] = [
  ["0.0.0.0/8", '"This network", RFC 791'],
  ["10.0.0.0/8", "Private-Use, RFC 1918"],
  ["100.64.0.0/10", "Shared Address Space, RFC 6598"],
  ["127.0.0.0/8", "Loopback, RFC 1122"],
  ["169.254.0.0/16", "Link Local, RFC 3927"],
  ["172.16.0.0/12", "Private-Use, RFC 1918"],
  ["192.0.0.0/24", "IETF Protocol Assignments, RFC 6890"],
  ["192.0.2.0/24", "Documentation, TEST-NET-1, RFC 5737"],
  ["192.31.196.0/24", "AS112-v4, RFC 7535"],
  ["192.52.193.0/24", "AMT, RFC 7450"],
  ["192.88.99.0/24", "Deprecated, 6to4 Relay Anycast, RFC 7526"],
  ["192.168.0.0/16", "Private-Use, RFC 1918"],
  ["198.18.0.0/15", "Benchmarking, RFC 2544"],
  ["198.51.100.0/24", "Documentation, TEST-NET-2, RFC 5737"],
  ["203.0.113.0/24", "Documentation, TEST-NET-3, RFC 5737"],
  ["224.0.0.0/4", "Multicast, RFC 5771"],
  ["240.0.0.0/4", "Reserved, RFC 1112"],
  ["255.255.255.255/32", "Limited Broadcast, RFC 919"],
];

/**
 * Refused IPv6 blocks: the IANA IPv6 Special-Purpose Address Registry, every entry (those it
 * marks globally reachable too: 64:ff9b::/96 reaches a translator of the sender's network, and
 * inside 2001::/23 PCP, TURN, DNS-SD SRP anycast, AMT, AS112-v6, ORCHIDv2 and DETs are anycast
 * services or identifiers, never a webhook receiver), plus the deprecated IPv4-compatible and
 * site-local blocks and multicast. Anything outside 2000::/3 is refused besides (below).
 */
export const REFUSED_IPV6_BLOCKS: readonly (readonly [cidr: string, name: string])[] = [
  ["::/128", "Unspecified Address, RFC 4291"],
  ["::1/128", "Loopback Address, RFC 4291"],
  ["::/96", "IPv4-compatible, deprecated, RFC 4291"],
  ["::ffff:0:0/96", "IPv4-mapped Address, RFC 4291"],
  ["64:ff9b::/96", "IPv4-IPv6 Translation, RFC 6052"],
  ["64:ff9b:1::/48", "IPv4-IPv6 Translation, local use, RFC 8215"],
  ["100::/64", "Discard-Only Address Block, RFC 6666"],
  ["2001::/23", "IETF Protocol Assignments, RFC 2928"],
  ["2001::/32", "TEREDO, RFC 4380"],
  ["2001:db8::/32", "Documentation, RFC 3849"],
  ["2002::/16", "6to4, RFC 3056"],
  ["2620:4f:8000::/48", "Direct Delegation AS112 Service, RFC 7534"],
  ["3fff::/20", "Documentation, RFC 9637"],
  ["5f00::/16", "Segment Routing (SRv6) SIDs, RFC 9602"],
  ["fc00::/7", "Unique-Local, RFC 4193"],
  ["fe80::/10", "Link-Local Unicast, RFC 4291"],
  ["fec0::/10", "Site-Local, deprecated, RFC 3879"],
  ["ff00::/8", "Multicast, RFC 4291"],
];

/** The IANA IPv6 Address Space allocates only this to global unicast; the rest is reserved. */
const GLOBAL_UNICAST = "2000::/3";

const MASK_32 = 0xffff_ffffn;

/** IPv6 forms that carry an IPv4 address, and where: such an address is judged by it too. */
const IPV4_EMBEDDINGS: readonly (readonly [cidr: string, extract: (address: bigint) => bigint[]])[] = [
  ["::ffff:0:0/96", (a) => [a & MASK_32]],
  // :: and ::1 are themselves, not IPv4-compatible forms of 0.0.0.0 and 0.0.0.1.
  ["::/96", (a) => (a > 1n ? [a & MASK_32] : [])],
  ["64:ff9b::/96", (a) => [a & MASK_32]],
  // 2002:WWXX:YYZZ::/48 routes to the 6to4 site at W.X.Y.Z.
  ["2002::/16", (a) => [(a >> 80n) & MASK_32]],
  // Teredo: the server's IPv4 in bits 32-63, the client's in the last 32 bits, inverted.
  ["2001::/32", (a) => [(a >> 64n) & MASK_32, (a & MASK_32) ^ MASK_32]],
];

interface Block {
  cidr: string;
  name: string;
  first: bigint;
  /** Bits below the prefix: the address shifted by these must equal `first` shifted by them. */
  hostBits: bigint;
}

/** Dotted decimal, each part 0-255, as the URL parser writes IPv4. */
export function parseIPv4(text: string): bigint | null {
  const parts = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text)?.slice(1).map(Number);
  if (!parts || parts.some((part) => part > 255)) return null;
  return parts.reduce((value, part) => (value << 8n) | BigInt(part), 0n);
}

/**
 * Any RFC 4291 spelling: `::` once at most, groups of 1 to 4 hex digits (zero-padded or not,
 * any case), a dotted quad as the last 32 bits. A zone id (`%eth0`) names an interface of the
 * sender, so it is no address here: null.
 */
export function parseIPv6(text: string): bigint | null {
  const lastColon = text.lastIndexOf(":");
  if (lastColon < 0) return null;
  let spelled = text;
  const tail = text.slice(lastColon + 1);
  if (tail.includes(".")) {
    const v4 = parseIPv4(tail);
    if (v4 === null) return null;
    spelled = `${text.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const halves = spelled.split("::");
  if (halves.length > 2) return null;
  const groupsOf = (half: string) => (half === "" ? [] : half.split(":"));
  const head = groupsOf(halves[0]);
  const rest = halves.length === 2 ? groupsOf(halves[1]) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(missing).fill("0"), ...rest];
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return null;
  return groups.reduce((value, group) => (value << 16n) | BigInt(parseInt(group, 16)), 0n);
}

function toBlock(cidr: string, name: string, width: 32 | 128): Block {
  const [address, length] = cidr.split("/");
  const first = width === 32 ? parseIPv4(address) : parseIPv6(address);
  if (first === null) throw new Error(`Bad block in the address table: ${cidr}`);
  return { cidr, name, first, hostBits: BigInt(width - Number(length)) };
}

const contains = (block: Block, address: bigint) => address >> block.hostBits === block.first >> block.hostBits;

/** Most specific first, so a refusal names the narrowest block (Teredo, not 2001::/23). */
const blocksOf = (table: typeof REFUSED_IPV4_BLOCKS, width: 32 | 128) =>
  table.map(([cidr, name]) => toBlock(cidr, name, width)).sort((a, b) => Number(a.hostBits - b.hostBits));

const IPV4_BLOCKS = blocksOf(REFUSED_IPV4_BLOCKS, 32);
const IPV6_BLOCKS = blocksOf(REFUSED_IPV6_BLOCKS, 128);
const IPV6_GLOBAL_UNICAST = toBlock(GLOBAL_UNICAST, "Global Unicast", 128);
const EMBEDDINGS = IPV4_EMBEDDINGS.map(([cidr, extract]) => ({ block: toBlock(cidr, "carries an IPv4 address", 128), extract }));
const LOOPBACK_IPV4 = toBlock("127.0.0.0/8", "Loopback", 32);
const LOOPBACK_IPV6 = 1n;

const formatIPv4 = (value: bigint) => [24n, 16n, 8n, 0n].map((shift) => (value >> shift) & 0xffn).join(".");
const refusedBlock = (blocks: Block[], address: bigint) => blocks.find((block) => contains(block, address));
const describeBlock = (block: Block) => `${block.cidr} (${block.name})`;

function ipv4Problem(address: bigint): string | null {
  const block = refusedBlock(IPV4_BLOCKS, address);
  return block ? `url must not point at ${describeBlock(block)}.` : null;
}

function ipv6Problem(address: bigint): string | null {
  for (const { block, extract } of EMBEDDINGS) {
    if (!contains(block, address)) continue;
    for (const v4 of extract(address)) {
      const refused = refusedBlock(IPV4_BLOCKS, v4);
      if (refused) return `url must not point at ${formatIPv4(v4)} (embedded in this IPv6 address), in ${describeBlock(refused)}.`;
    }
  }
  const block = refusedBlock(IPV6_BLOCKS, address);
  if (block) return `url must not point at ${describeBlock(block)}.`;
  if (!contains(IPV6_GLOBAL_UNICAST, address)) return `url must not point outside ${GLOBAL_UNICAST}, the only IPv6 space allocated to global unicast.`;
  return null;
}

/** The hostname as DNS reads it: case-insensitive, a trailing dot (the root) changes nothing. */
const canonicalName = (hostname: string) => hostname.toLowerCase().replace(/\.+$/, "");

const isLocalhostName = (name: string) => name === "localhost" || name.endsWith(".localhost");

type HostAddress = { family: 4 | 6; value: bigint } | { family: "name" } | { family: "invalid" };

function addressOf(name: string): HostAddress {
  if (name.startsWith("[")) {
    const value = name.endsWith("]") ? parseIPv6(name.slice(1, -1)) : null;
    return value === null ? { family: "invalid" } : { family: 6, value };
  }
  const value = parseIPv4(name);
  return value === null ? { family: "name" } : { family: 4, value };
}

/**
 * What WEBHOOKS_ALLOW_INSECURE allows besides http://, exactly: localhost, *.localhost,
 * 127.0.0.0/8 and ::1; no other spelling of loopback (mapped, compatible) nor anything private.
 */
function isLocalDevelopmentHost(name: string, address: HostAddress): boolean {
  if (address.family === 4) return contains(LOOPBACK_IPV4, address.value);
  if (address.family === 6) return address.value === LOOPBACK_IPV6;
  return address.family === "name" && isLocalhostName(name);
}

/**
 * Why a webhook may not be sent to `hostname` (a URL's), or null when it may: not localhost
 * nor its subdomains, not an address the special-purpose registries list (nor an IPv6 form
 * embedding one), not outside IPv6 global unicast. `allowInsecure`: see isLocalDevelopmentHost.
 */
export function hostProblem(hostname: string, allowInsecure: boolean): string | null {
  const name = canonicalName(hostname);
  const address = addressOf(name);
  if (allowInsecure && isLocalDevelopmentHost(name, address)) return null;
  switch (address.family) {
    case 4:
      return ipv4Problem(address.value);
    case 6:
      return ipv6Problem(address.value);
    case "invalid":
      return "url must hold a valid IPv6 address, without a zone id.";
    case "name":
      return isLocalhostName(name) ? "url must not point at localhost." : null;
  }
}
