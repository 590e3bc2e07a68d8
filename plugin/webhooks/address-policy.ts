/**
 * `refusePrivateAddresses`: a target whose name resolves to a loopback, private, link-local or
 * otherwise internal address is not sent to. The check is made on the address the connection is
 * opened to (a `lookup` of the request), so a name that resolves to a public address when checked
 * and a private one when connected cannot slip through.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOneOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

const internal = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  internal.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  internal.addSubnet(network, prefix, 'ipv6');
}

export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return internal.check(address, 'ipv4');
  if (family === 6) {
    // An IPv4 address written as IPv6 (::ffff:127.0.0.1) is checked as the IPv4 address it is.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    return mapped ? internal.check(mapped[1]!, 'ipv4') : internal.check(address, 'ipv6');
  }
  return true;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for http.request that fails on an internal address. */
export function publicOnlyLookup(hostname: string, options: LookupOneOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find((entry) => isInternalAddress(entry.address));
    if (refused) return callback(Object.assign(new Error(`${hostname} resolves to ${refused.address}, a private address (refusePrivateAddresses)`), { code: 'EPRIVATEADDRESS' }), []);
    if ((options as { all?: boolean }).all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}
