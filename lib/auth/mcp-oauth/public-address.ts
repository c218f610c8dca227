// Whether an IP address is on the public internet. Client ID metadata documents are fetched only
// from such addresses, so a client_id URL cannot make the server reach its own network (SSRF):
// loopback, private, link-local (cloud metadata), unique-local, multicast, reserved and documentation
// ranges are refused, also when hidden in IPv4-mapped, NAT64 or 6to4 IPv6 addresses.
import { isIPv4, isIPv6 } from "node:net";

type Range = readonly [network: readonly number[], prefixLength: number];

const NON_PUBLIC_IPV4: readonly Range[] = [
  [[0, 0, 0, 0], 8], // "this network", including 0.0.0.0
  [[10, 0, 0, 0], 8],
  [[100, 64, 0, 0], 10], // carrier-grade NAT
  [[127, 0, 0, 0], 8],
  [[169, 254, 0, 0], 16], // link-local, cloud metadata endpoints
  [[172, 16, 0, 0], 12],
  [[192, 0, 0, 0], 24],
  [[192, 0, 2, 0], 24],
  [[192, 88, 99, 0], 24],
  [[192, 168, 0, 0], 16],
  [[198, 18, 0, 0], 15],
  [[198, 51, 100, 0], 24],
  [[203, 0, 113, 0], 24],
  [[224, 0, 0, 0], 4], // multicast
  [[240, 0, 0, 0], 4], // reserved and broadcast
];

function inRange(bytes: readonly number[], [network, prefixLength]: Range): boolean {
  for (let bit = 0; bit < prefixLength; bit += 8) {
    const index = bit / 8;
    const bits = Math.min(8, prefixLength - bit);
    const mask = (0xff << (8 - bits)) & 0xff;
    if (((bytes[index] ?? 0) & mask) !== ((network[index] ?? 0) & mask)) return false;
  }
  return true;
}

function ipv4Bytes(address: string): number[] {
  return address.split(".").map(Number);
}

function isPublicIpv4Bytes(bytes: readonly number[]): boolean {
  return !NON_PUBLIC_IPV4.some((range) => inRange(bytes, range));
}

/** The 16 bytes of an IPv6 address (which `isIPv6` has accepted), dotted IPv4 tails included. */
function ipv6Bytes(address: string): number[] {
  let text = address.toLowerCase();
  const tail: number[] = [];
  const dotted = /:(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    tail.push(...ipv4Bytes(dotted[1]));
    text = `${text.slice(0, dotted.index)}:0:0`;
  }
  const [head = "", rest] = text.split("::");
  const headGroups = head ? head.split(":") : [];
  const restGroups = rest ? rest.split(":") : [];
  const missing = 8 - headGroups.length - restGroups.length;
  const groups = [...headGroups, ...Array<string>(rest === undefined ? 0 : missing).fill("0"), ...restGroups];
  const bytes = groups.flatMap((group) => {
    const value = parseInt(group || "0", 16);
    return [value >> 8, value & 0xff];
  });
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

function isPublicIpv6Bytes(bytes: readonly number[]): boolean {
  const embeddedV4 = bytes.slice(12, 16);
  // ::ffff:a.b.c.d (IPv4-mapped) and 64:ff9b::a.b.c.d (NAT64): judged by the IPv4 address inside.
  if (inRange(bytes, [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff], 96])) return isPublicIpv4Bytes(embeddedV4);
  if (inRange(bytes, [[0, 0x64, 0xff, 0x9b], 96])) return isPublicIpv4Bytes(embeddedV4);
  // Everything outside global unicast 2000::/3 is not public: ::, ::1, fc00::/7, fe80::/10, ff00::/8…
  if (!inRange(bytes, [[0x20], 3])) return false;
  if (inRange(bytes, [[0x20, 0x01, 0x0d, 0xb8], 32])) return false; // documentation
  if (inRange(bytes, [[0x20, 0x01, 0x00], 23])) return false; // IETF protocol assignments, Teredo
  if (inRange(bytes, [[0x20, 0x02], 16])) return isPublicIpv4Bytes(bytes.slice(2, 6)); // 6to4
  return true;
}

/** True only for a syntactically valid IPv4 or IPv6 address on the public internet. */
export function isPublicIpAddress(address: string): boolean {
  const bare = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  if (isIPv4(bare)) return isPublicIpv4Bytes(ipv4Bytes(bare));
  if (isIPv6(bare) && !bare.includes("%")) return isPublicIpv6Bytes(ipv6Bytes(bare));
  return false;
}
