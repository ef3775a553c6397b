import { createClient, unwrap, type Schemas, type VenueClient } from '../../sdk/index.ts';
import { InputError } from './failure.ts';

export const DEFAULT_URL = 'http://localhost:3000';
/** Long enough for a reset (rollback and re-migrate), short enough that a silent host does not hang the screen. */
const REQUEST_TIMEOUT_MS = 30_000;

export type Principal = Schemas['Principal'];

export interface Connection {
  client: VenueClient;
  baseUrl: string;
  principal: Principal;
}

/** `http(s)://host[:port]`, trailing slashes dropped; anything else is refused before a request is made. */
export function normalizeUrl(input: string): string {
  const text = input.trim();
  if (!/^https?:\/\//i.test(text)) {
    throw new InputError('Not a server URL', `"${text}" needs http:// or https:// in front, e.g. http://localhost:3000.`, [{ path: 'url', message: 'use http://host:port' }]);
  }
  if (!URL.canParse(text)) {
    throw new InputError('Not a server URL', `"${text}" is not a URL; give it as http://host:port.`, [{ path: 'url', message: 'use http://host:port' }]);
  }
  return text.replace(/\/+$/, '');
}

const withTimeout: typeof fetch = (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });

/**
 * Connects with a superuser token: GET /api/auth/me must answer and name a superuser. Throws ApiError (401 for a
 * wrong token), InputError, or the network's TypeError; `toFailure` turns any of them into something to show.
 */
export async function connect(url: string, token: string): Promise<Connection> {
  const baseUrl = normalizeUrl(url);
  if (!token.trim()) throw new InputError('No token', 'Type a superuser token, or set VENUE_SUPERUSER_TOKEN.', [{ path: 'token', message: 'required' }]);
  const client = createClient({ baseUrl, superuserToken: token.trim(), fetch: withTimeout });
  const principal = unwrap(await client.GET('/api/auth/me'));
  if (principal.role !== 'superuser') {
    throw new InputError('Not a superuser', `The server resolved this credential to role "${principal.role}" (${principal.authSource}); the terminal app needs a superuser token.`);
  }
  return { client, baseUrl, principal };
}
