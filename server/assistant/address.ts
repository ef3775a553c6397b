import type { Config } from '../platform/config.ts';

/**
 * Where the assistant's tools reach this service (ASSISTANT_API_BASE_URL, default: the service itself). The
 * service's own address is not known from configuration alone — PORT may be 0 (an ephemeral port, as in the
 * tests), HOST a wildcard — so it is learned: `main.ts` notes the address it listens on, and every assistant
 * route notes the local address its request arrived on (the listening socket, reachable from this process).
 * Before either, `http://<HOST, or 127.0.0.1 for a wildcard>:<PORT>`.
 */
const learned = new WeakMap<object, string>();

export function noteOwnAddress(app: object, baseUrl: string): void {
  learned.set(app, baseUrl.replace(/\/+$/, ''));
}

/** The base URL of a local socket address (`::ffff:127.0.0.1`, `::1`, …) and port. */
export function socketBaseUrl(address: string | undefined, port: number | undefined): string | undefined {
  if (!address || !port) return undefined;
  const bare = address.startsWith('::ffff:') ? address.slice(7) : address;
  const host = bare === '0.0.0.0' || bare === '::' ? '127.0.0.1' : bare.includes(':') ? `[${bare}]` : bare;
  return `http://${host}:${port}`;
}

export function assistantApiBaseUrl(app: object, config: Pick<Config, 'assistantApiBaseUrl' | 'host' | 'port'>): string {
  if (config.assistantApiBaseUrl) return config.assistantApiBaseUrl;
  const known = learned.get(app);
  if (known) return known;
  const host = config.host === '0.0.0.0' || config.host === '::' || config.host === '' ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port}`;
}
