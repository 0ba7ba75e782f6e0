/**
 * Which addresses the server may connect to when it fetches an address a user typed. An IPv6
 * address that carries an IPv4 one (mapped `::ffff:a.b.c.d`, compatible `::a.b.c.d`, SIIT
 * `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::/96` and `64:ff9b:1::/48`, 6to4 `2002::/16`) reaches that
 * IPv4 host, so it is judged as that IPv4 address; otherwise `::ffff:169.254.169.254` would pass
 * a rule written for `169.254.0.0/16`.
 */
import dns, { type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppError } from '../errors.js';

/**
 * Refused even when private addresses are allowed: IPv4 link-local, where cloud metadata answers
 * (169.254.169.254), and the IPv6 metadata address of AWS.
 */
const ALWAYS_DENIED_V4 = [ipaddr.IPv4.parseCIDR('169.254.0.0/16')];
const ALWAYS_DENIED_V6 = [ipaddr.IPv6.parseCIDR('fd00:ec2::254/128')];

/** The IPv6 ranges that stand for an IPv4 host, and where in the address that host is written. */
const CARRIERS: { range: [ipaddr.IPv6, number]; ipv4At: number }[] = [
  { range: ipaddr.IPv6.parseCIDR('::ffff:0:0/96'), ipv4At: 12 },
  { range: ipaddr.IPv6.parseCIDR('::ffff:0:0:0/96'), ipv4At: 12 },
  { range: ipaddr.IPv6.parseCIDR('64:ff9b::/96'), ipv4At: 12 },
  { range: ipaddr.IPv6.parseCIDR('64:ff9b:1::/48'), ipv4At: 12 },
  { range: ipaddr.IPv6.parseCIDR('2002::/16'), ipv4At: 2 },
  // IPv4-compatible (deprecated); `::` and `::1` are IPv6's own unspecified and loopback.
  { range: ipaddr.IPv6.parseCIDR('::/96'), ipv4At: 12 },
];

/** The IPv4 address an IPv6 address stands for, if it is one of the forms above. */
function carriedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const range = address.range();
  if (range === 'unspecified' || range === 'loopback') return undefined;
  const bytes = address.toByteArray();
  for (const { range: cidr, ipv4At } of CARRIERS) {
    if (address.match(cidr)) return new ipaddr.IPv4(bytes.slice(ipv4At, ipv4At + 4));
  }
  return undefined;
}

/** Why the server must not connect to this address, or undefined when it may. */
export function addressRefusal(address: string, allowPrivate: boolean): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const parsed = ipaddr.parse(address);
  const judged = parsed.kind() === 'ipv6' && parsed instanceof ipaddr.IPv6 ? (carriedIPv4(parsed) ?? parsed) : parsed;
  const range = judged.range();
  if (range === 'unspecified') return `${address} is the unspecified address`;
  const denied = judged instanceof ipaddr.IPv4 ? ALWAYS_DENIED_V4.some((cidr) => judged.match(cidr)) : ALWAYS_DENIED_V6.some((cidr) => judged instanceof ipaddr.IPv6 && judged.match(cidr));
  if (denied) return `${address} is a link-local or metadata address`;
  if (!allowPrivate && range !== 'unicast') return `${address} is a ${range} address`;
  return undefined;
}

/**
 * The refusal a fetch answers with. The reason stays out of the answer: it would tell the user
 * what a name resolves to inside the server's network.
 */
export function refusedAddressError(): AppError {
  return new AppError('ERR_MEDIA_URL_FORBIDDEN');
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
type BaseLookup = (hostname: string, options: LookupAllOptions, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

const systemLookup: BaseLookup = (hostname, options, callback) => dns.lookup(hostname, options, callback);

/**
 * A DNS lookup for sockets (the `lookup` option of http.request) that fails when any address the
 * name resolves to is refused, so a name cannot point the server at a place an address could not.
 */
export function guardedLookup(allowPrivate: boolean, base: BaseLookup = systemLookup) {
  return (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback): void => {
    base(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      for (const { address } of addresses) {
        if (addressRefusal(address, allowPrivate)) return callback(refusedAddressError(), []);
      }
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      return callback(null, first.address, first.family);
    });
  };
}

/** The host of a URL as an IP address, when it is written as one (`[::1]` gives `::1`). */
export function literalAddress(url: URL): string | undefined {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return net.isIP(host) === 0 ? undefined : host;
}
