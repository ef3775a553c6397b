import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

/**
 * One POST to an address an administrator typed in (a webhook endpoint, issue 36 §3), kept from reaching what it must
 * not (SSRF): the venue's own machine, its private networks, the cloud's metadata service. Only the job engine calls it
 * (never a request path), and it:
 * - refuses loopback, private, link-local, unique-local, carrier-grade NAT, unspecified, multicast and reserved
 *   addresses unless the network is allowed (WEBHOOK_ALLOWED_NETWORKS), checking the address the connection is made
 *   to: a name is resolved by our own `lookup` on the request itself, so a name that resolves to a public address
 *   when the endpoint is saved and to 127.0.0.1 when it is called (DNS rebinding) is refused at the call, and a
 *   literal address (which Node connects to without any lookup) is checked before the request;
 * - follows no redirect (Node's http never does; a 3xx is the caller's failure to report);
 * - gives up after `timeoutMs` in all (connection, answer and the excerpt read);
 * - reads at most `excerptBytes` of the answer and drops the rest.
 */

/** Ranges refused unless allowed. IPv4 rules also match the IPv4-mapped IPv6 form (`::ffff:127.0.0.1`). */
const REFUSED: ReadonlyArray<[string, number, 'ipv4' | 'ipv6']> = [
  ['0.0.0.0', 8, 'ipv4'], // "this network", 0.0.0.0 reaches the local host
  ['10.0.0.0', 8, 'ipv4'], // private
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT
  ['127.0.0.0', 8, 'ipv4'], // loopback
  ['169.254.0.0', 16, 'ipv4'], // link-local (cloud metadata at 169.254.169.254)
  ['172.16.0.0', 12, 'ipv4'], // private
  ['192.0.0.0', 24, 'ipv4'], // IETF protocol assignments
  ['192.168.0.0', 16, 'ipv4'], // private
  ['198.18.0.0', 15, 'ipv4'], // benchmarking
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, broadcast
  ['::', 128, 'ipv6'], // unspecified
  ['::1', 128, 'ipv6'], // loopback
  ['64:ff9b::', 96, 'ipv6'], // NAT64: an IPv4 address behind the translator
  ['fc00::', 7, 'ipv6'], // unique local
  ['fe80::', 10, 'ipv6'], // link-local
  ['ff00::', 8, 'ipv6'], // multicast
];

const family = (address: string): 'ipv4' | 'ipv6' => (net.isIPv6(address) ? 'ipv6' : 'ipv4');

/** Which addresses may be reached: anything but the refused ranges, and those of them in `allowed` (CIDRs or addresses). */
export class AddressGuard {
  private readonly refused = new net.BlockList();
  private readonly allowed = new net.BlockList();

  constructor(allowedNetworks: readonly string[] = []) {
    for (const [address, prefix, type] of REFUSED) this.refused.addSubnet(address, prefix, type);
    for (const network of allowedNetworks) {
      const [address, prefix] = network.split('/');
      const type = family(address);
      this.allowed.addSubnet(address, prefix === undefined ? (type === 'ipv6' ? 128 : 32) : Number(prefix), type);
    }
  }

  /** Whether a connection to `address` (an IP literal) may be made. */
  permits(address: string): boolean {
    const type = family(address);
    return !this.refused.check(address, type) || this.allowed.check(address, type);
  }
}

/** Why an address was refused: the caller reports it as the attempt's error. */
export class AddressRefused extends Error {
  readonly code = 'EADDRREFUSED';
  constructor(host: string, address: string) {
    super(host === address ? `${address} is a private, loopback or reserved address` : `${host} resolves to ${address}, a private, loopback or reserved address`);
    this.name = 'AddressRefused';
  }
}

/** The host of a URL as an IP literal (`[::1]` → `::1`), or undefined for a name. */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return net.isIP(bare) ? bare : undefined;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** `lookup` for http.request: resolves every address of the name and refuses the name if any of them is refused. */
function guardedLookup(guard: AddressGuard) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const refused = addresses.find((entry) => !guard.permits(entry.address));
      if (refused) return callback(new AddressRefused(hostname, refused.address) as NodeJS.ErrnoException, []);
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      callback(null, first.address, first.family);
    });
  };
}

export type OutboundFailure = 'refused' | 'timeout' | 'network';

export type OutboundAnswer =
  | { answered: true; statusCode: number; excerpt: string; location: string | undefined; latencyMs: number }
  | { answered: false; failure: OutboundFailure; error: string; latencyMs: number };

export interface GuardedPostOptions {
  guard: AddressGuard;
  timeoutMs: number;
  /** At most this many bytes of the answer are kept (as UTF-8 text). */
  excerptBytes: number;
  headers: Record<string, string>;
}

/** POSTs `body` to `url` under the guard; never throws (a refusal, a time-out or a network failure is an answer too). */
export function guardedPost(url: string, body: string, options: GuardedPostOptions): Promise<OutboundAnswer> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (answer: OutboundAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(answer);
    };
    const fail = (failure: OutboundFailure, error: string) => finish({ answered: false, failure, error, latencyMs: latency() });
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return fail('network', 'the URL cannot be parsed');
    }
    const literal = literalAddress(target.hostname);
    if (literal && !options.guard.permits(literal)) return fail('refused', new AddressRefused(literal, literal).message);
    const transport = target.protocol === 'https:' ? https : target.protocol === 'http:' ? http : undefined;
    if (!transport) return fail('network', `unsupported scheme ${target.protocol}`);
    timer = setTimeout(() => {
      request.destroy();
      fail('timeout', `no answer within ${options.timeoutMs} ms`);
    }, options.timeoutMs);
    const request = transport.request(target, {
      method: 'POST',
      // A connection of its own (no pooled socket to an address resolved for another call), looked up through the guard.
      agent: false,
      lookup: guardedLookup(options.guard) as unknown as typeof dns.lookup,
      headers: { ...options.headers, 'content-length': String(Buffer.byteLength(body)) },
    });
    request.on('error', (err: NodeJS.ErrnoException) => {
      if (err instanceof AddressRefused || err.code === 'EADDRREFUSED') return fail('refused', err.message);
      fail('network', `${err.code ?? err.name}: ${err.message}`.slice(0, 500));
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      const done = () => {
        const excerpt = Buffer.concat(chunks).subarray(0, options.excerptBytes).toString('utf8').replace(/\uFFFD$/, '');
        finish({ answered: true, statusCode: response.statusCode ?? 0, excerpt, location: response.headers.location, latencyMs: latency() });
        response.destroy();
      };
      response.on('data', (chunk: Buffer) => {
        if (kept >= options.excerptBytes) return;
        chunks.push(chunk);
        kept += chunk.length;
        // Enough to show what the receiver said: the rest is not read (a receiver answering gigabytes costs nothing).
        if (kept >= options.excerptBytes) done();
      });
      response.on('end', done);
      response.on('error', done);
    });
    request.end(body);
  });
}
