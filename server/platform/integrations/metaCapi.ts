import { createHash } from 'node:crypto';
import type { Config } from '../config.ts';

/**
 * Meta Conversions API client: `POST {graphApiUrl}/{version}/{pixelId}/events` with `{ data: [event],
 * access_token, test_event_code? }` (https://developers.facebook.com/docs/marketing-api/conversions-api/using-the-api).
 *
 * Customer information parameters are normalized and SHA-256-hashed (lowercase hex) as Meta specifies
 * (…/conversions-api/parameters/customer-information-parameters):
 * - `em`: trimmed, lower case.
 * - `ph`: digits only (symbols, letters, spaces removed), with the country code and no leading zeros; a number
 *   written without one (national form, `0901 234 567`) gets the default country code (`84`).
 * - `fn`, `ln`: trimmed, lower case, punctuation removed (letters of any script kept, UTF-8).
 * - `external_id`: trimmed, hashed.
 * - `client_ip_address`, `client_user_agent`, `fbp`, `fbc`: sent as they are (Meta requires them unhashed).
 *
 * A send never throws: it answers what happened, with `retryable` true for a 5xx, a time-out or a network
 * failure, false for a 4xx (Meta refused the payload; sending it again would not help).
 */

export interface MetaCapiOptions {
  graphApiUrl: string;
  version: string;
  pixelId?: string;
  accessToken?: string;
  testEventCode?: string;
  timeoutMs: number;
}

export const metaCapiOptions = (config: Config): MetaCapiOptions => ({
  graphApiUrl: config.metaGraphApiUrl,
  version: config.metaGraphApiVersion,
  pixelId: config.metaPixelId,
  accessToken: config.metaCapiAccessToken,
  testEventCode: config.metaTestEventCode,
  timeoutMs: config.metaCapiTimeoutMs,
});

/** On only when both the pixel id and the access token are set. */
export const isMetaConfigured = (options: Pick<MetaCapiOptions, 'pixelId' | 'accessToken'>): boolean => Boolean(options.pixelId && options.accessToken);

export const DEFAULT_COUNTRY_CODE = '84';

export const sha256 = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Digits with the country code: `+84 90-123 4567`, `0084901234567`, `0901234567`, `901234567` → `84901234567`. */
export function normalizePhone(phone: string, countryCode = DEFAULT_COUNTRY_CODE): string {
  const trimmed = phone.trim();
  let digits = trimmed.replace(/\D/g, '');
  if (!digits) return '';
  if (trimmed.startsWith('+')) return digits.replace(/^0+/, '');
  if (digits.startsWith('00')) return digits.slice(2).replace(/^0+/, '');
  if (digits.startsWith('0')) return countryCode + digits.replace(/^0+/, '');
  // Already international (country code and a full national number: longer than a national number here is).
  if (digits.startsWith(countryCode) && digits.length > 10) return digits;
  return countryCode + digits;
}

export function normalizeName(name: string): string {
  return name
    .normalize('NFC')
    .trim()
    .toLowerCase()
    .replace(/[\p{P}\p{S}]/gu, '')
    .replace(/\s+/g, ' ');
}

export interface ContactFields {
  email?: string | null;
  phone?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  externalId?: string | null;
}

export interface ClientFields {
  ip?: string | null;
  userAgent?: string | null;
  fbp?: string | null;
  fbc?: string | null;
}

/** Meta's `user_data`: contact fields hashed (as arrays, each one value), client fields as they are. */
export function buildUserData(contact: ContactFields, client: ClientFields = {}): Record<string, unknown> {
  const user: Record<string, unknown> = {};
  const put = (key: string, normalized: string | undefined) => {
    if (normalized) user[key] = [sha256(normalized)];
  };
  if (contact.email) put('em', normalizeEmail(contact.email));
  if (contact.phone) put('ph', normalizePhone(contact.phone));
  if (contact.firstName) put('fn', normalizeName(contact.firstName));
  if (contact.lastName) put('ln', normalizeName(contact.lastName));
  if (contact.externalId) put('external_id', contact.externalId.trim());
  if (client.ip) user.client_ip_address = client.ip;
  if (client.userAgent) user.client_user_agent = client.userAgent;
  if (client.fbp) user.fbp = client.fbp;
  if (client.fbc) user.fbc = client.fbc;
  return user;
}

export type MetaSendResult =
  | { ok: true; httpStatus: number; eventsReceived: number | null; fbtraceId: string | null }
  | { ok: false; retryable: boolean; httpStatus: number | null; fbtraceId: string | null; errorMessage: string };

/** The events endpoint of the configured pixel. */
export const eventsUrl = (options: MetaCapiOptions): string => `${options.graphApiUrl}/${options.version}/${encodeURIComponent(options.pixelId ?? '')}/events`;

export async function sendMetaEvents(options: MetaCapiOptions, events: object[], fetchImpl: typeof fetch = fetch): Promise<MetaSendResult> {
  if (!isMetaConfigured(options)) return { ok: false, retryable: false, httpStatus: null, fbtraceId: null, errorMessage: 'not configured' };
  const body: Record<string, unknown> = { data: events, access_token: options.accessToken };
  if (options.testEventCode) body.test_event_code = options.testEventCode;
  let response: Response;
  let text: string;
  try {
    response = await fetchImpl(eventsUrl(options), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    text = await response.text();
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError';
    return { ok: false, retryable: true, httpStatus: null, fbtraceId: null, errorMessage: timedOut ? `no answer within ${options.timeoutMs} ms` : `network: ${(err as Error).message}` };
  }
  let parsed: any = undefined;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: reported below
  }
  if (response.ok) {
    if (!parsed || typeof parsed !== 'object') return { ok: false, retryable: true, httpStatus: response.status, fbtraceId: null, errorMessage: 'the answer is not JSON' };
    return {
      ok: true,
      httpStatus: response.status,
      eventsReceived: Number.isInteger(parsed.events_received) ? parsed.events_received : null,
      fbtraceId: typeof parsed.fbtrace_id === 'string' ? parsed.fbtrace_id.slice(0, 200) : null,
    };
  }
  const error = parsed?.error;
  const message = typeof error?.message === 'string' ? error.message : `HTTP ${response.status}`;
  return {
    ok: false,
    retryable: response.status >= 500,
    httpStatus: response.status,
    fbtraceId: typeof error?.fbtrace_id === 'string' ? error.fbtrace_id.slice(0, 200) : typeof parsed?.fbtrace_id === 'string' ? parsed.fbtrace_id.slice(0, 200) : null,
    errorMessage: message.slice(0, 1000),
  };
}
