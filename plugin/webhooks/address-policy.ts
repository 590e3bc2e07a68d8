/**
 * `refusePrivateAddresses`: a target is sent to only when the address the connection is opened to
 * is a public unicast address. Every special-purpose range of IANA's IPv4 and IPv6 registries is
 * refused (loopback, private, link-local, CGNAT, multicast, reserved, documentation,
 * benchmarking, unspecified, broadcast, unique local, …), as named by `ipaddr.js`'s `range()`,
 * and so is any IPv6 address outside 2000::/3 (the only space allocated for global unicast).
 *
 * An IPv6 address that carries an IPv4 address reaches that IPv4 address (through the kernel, a
 * NAT64 gateway or a 6to4/Teredo relay): it is judged by the IPv4 address it carries, so that
 * `::ffff:127.0.0.1`, `::127.0.0.1`, `64:ff9b::7f00:1` or `2002:7f00:1::` are refused like
 * 127.0.0.1, while `64:ff9b::808:808` (what DNS64 gives for 8.8.8.8 on an IPv6-only host) passes.
 *
 * Names are checked by the `lookup` of the request: the addresses checked are the ones the
 * socket connects to, never the answer of a second lookup that could differ (DNS rebinding).
 * Node does not call `lookup` for a URL whose host is an address: `literalAddressRefusal` is
 * checked before any request is made.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;

/**
 * Why an address may not be connected to (its special-purpose range), or null for a public
 * unicast address. Anything that is not an IP address is refused.
 */
export function addressRefusal(address: string): string | null {
  if (!isIP(address)) return 'not an IP address';
  return isIP(address) === 4 ? ipv4Refusal(ipaddr.IPv4.parse(address)) : ipv6Refusal(parseIPv6(address));
}

/**
 * ipaddr.js reads `::a.b.c.d` as `::ffff:a.b.c.d`, but the socket connects to `::a.b.c.d`: the
 * address is first written in hex by the URL parser (as `new URL` did for a target's URL).
 */
function parseIPv6(address: string): IPv6 {
  const withoutZone = address.replace(/%.*$/, '');
  return ipaddr.IPv6.parse(new URL(`http://[${withoutZone}]/`).hostname.slice(1, -1));
}

export function isInternalAddress(address: string): boolean {
  return addressRefusal(address) !== null;
}

function ipv4Refusal(address: IPv4): string | null {
  const range = address.range();
  return range === 'unicast' ? null : range;
}

function ipv6Refusal(address: IPv6): string | null {
  const range = address.range();
  // :: and ::1 are inside ::/96 (IPv4-compatible) too: they are named for what they are.
  if (range === 'unspecified' || range === 'loopback') return range;
  const embedded = embeddedIPv4(address);
  if (embedded) {
    for (const { form, ipv4 } of embedded) {
      const refusal = ipv4Refusal(ipv4);
      if (refusal) return `${refusal} (${form} form of ${ipv4.toString()})`;
    }
    return null;
  }
  if (range !== 'unicast') return range;
  // Outside 2000::/3 nothing is allocated for global unicast: what ipaddr.js does not name yet is refused too.
  if ((address.parts[0]! & 0xe000) !== 0x2000) return 'reserved';
  return null;
}

/**
 * The IPv4 addresses an IPv6 address carries, with the name of the form, or null when it carries
 * none. A form whose IPv4 address a router or relay would reach yields it; Teredo names two
 * (its server, and its client with the bits inverted) and both must be public.
 */
function embeddedIPv4(address: IPv6): { form: string; ipv4: IPv4 }[] | null {
  const parts = address.parts;
  const ipv4 = (high: number, low: number, invert = false): IPv4 => {
    const value = invert ? ~((high << 16) | low) >>> 0 : ((high << 16) | low) >>> 0;
    return new ipaddr.IPv4([value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff]);
  };
  const last32 = () => ipv4(parts[6]!, parts[7]!);
  const zeros = (from: number, to: number) => parts.slice(from, to).every((part) => part === 0);
  if (zeros(0, 6)) return [{ form: 'IPv4-compatible', ipv4: last32() }];
  if (zeros(0, 5) && parts[5] === 0xffff) return [{ form: 'IPv4-mapped', ipv4: last32() }];
  if (zeros(0, 4) && parts[4] === 0xffff && parts[5] === 0) return [{ form: 'IPv4-translated', ipv4: last32() }];
  // 64:ff9b:1::/48, NAT64 for local use, puts the IPv4 address where each network chooses: it is refused as a range.
  if (parts[0] === 0x64 && parts[1] === 0xff9b && zeros(2, 6)) return [{ form: 'NAT64', ipv4: last32() }];
  if (parts[0] === 0x2002) return [{ form: '6to4', ipv4: ipv4(parts[1]!, parts[2]!) }];
  if (parts[0] === 0x2001 && parts[1] === 0) {
    return [
      { form: 'Teredo client', ipv4: ipv4(parts[6]!, parts[7]!, true) },
      { form: 'Teredo server', ipv4: ipv4(parts[2]!, parts[3]!) },
    ];
  }
  return null;
}

/** Why the host of a URL, when it is an address (`[…]` for IPv6), may not be connected to; null when it may or when it is a name. */
export function literalAddressRefusal(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!isIP(host)) return null;
  const refusal = addressRefusal(host);
  return refusal && `${url.hostname} is a private address: ${refusal} (refusePrivateAddresses)`;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
/** How names are resolved: `dns.lookup` with `all: true`. */
export type Resolve = (hostname: string, options: LookupAllOptions, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

/**
 * A `lookup` for http.request that fails when any address of the name is not public: the socket
 * connects to one of the addresses checked here, and Node may try each of them in turn.
 */
export function publicOnlyLookup(resolve: Resolve = dnsLookup) {
  return (hostname: string, options: LookupOneOptions, callback: LookupCallback): void => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      if (!addresses.length) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      for (const entry of addresses) {
        const refusal = addressRefusal(entry.address);
        if (refusal) {
          const message = `${hostname} resolves to ${entry.address}, a private address: ${refusal} (refusePrivateAddresses)`;
          return callback(Object.assign(new Error(message), { code: 'EPRIVATEADDRESS' }), []);
        }
      }
      if ((options as { all?: boolean }).all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
