import type { Knex } from 'knex';
import { openSecret, sealSecret } from '../../platform/auth/tokens.ts';

/**
 * A guest's token is the guest's alone (issue 32 §3). Some messages carry a link that works by itself because it
 * holds the guest's secret: the manage-booking link (`…/booking/<reference>#token=<access token>`: read, cancel,
 * show the ticket) and the waiting-list offer link (`…?event=<slug>&token=<offer token>`: book the held seats).
 * The ledger is read by staff, so it keeps these messages with each such token replaced by a visible placeholder
 * (`#token=[guest token removed]`: staff still see which page the guest was sent to); the tokens themselves are
 * kept sealed beside the row only until it is delivered (`email_messages.guest_tokens_sealed`), put back in the
 * copy handed to the transport, and dropped once the row is SENT or FAILED.
 */

/** The template fields that hold a link carrying a guest's token (`token=` in its query or fragment). */
export const GUEST_LINK_FIELDS: Readonly<Record<string, readonly string[]>> = {
  'reservation-confirmation': ['manageUrl'],
  'reservation-reminder': ['manageUrl'],
  'waitlist-offer': ['offerUrl'],
  'bank-transfer-details': ['manageUrl'],
  'bank-transfer-reminder': ['manageUrl'],
  'pay-at-venue-pending': ['manageUrl'],
};

/** What stands in the ledger for the `index`-th token of a message (0-based). */
export const guestTokenPlaceholder = (index: number): string => (index === 0 ? '[guest token removed]' : `[guest token ${index + 1} removed]`);

/** A `token=` parameter of a link's query or fragment, its value as written (up to the next `&`, `#` or space). */
const TOKEN_PARAMETER = /([?&#]token=)([^&#\s"'<>]+)/g;

/** A token shorter than this is not a guest's secret (ours are 43 characters): it is not searched for in the text. */
const MIN_TOKEN_LENGTH = 16;

export interface RedactedData<T> {
  /** The template data with every guest token in its links replaced by its placeholder. */
  data: T;
  /** The tokens, in placeholder order (empty when the message carries none). */
  tokens: string[];
}

/** The template data as the ledger may keep it, and the tokens taken out of it. */
export function redactGuestLinks<T>(template: string, data: T): RedactedData<T> {
  const fields = GUEST_LINK_FIELDS[template];
  if (!fields || !data || typeof data !== 'object') return { data, tokens: [] };
  const tokens: string[] = [];
  const copy = { ...(data as Record<string, unknown>) };
  for (const field of fields) {
    const link = copy[field];
    if (typeof link !== 'string') continue;
    copy[field] = link.replace(TOKEN_PARAMETER, (_match, prefix: string, token: string) => {
      let index = tokens.indexOf(token);
      if (index < 0) index = tokens.push(token) - 1;
      return `${prefix}${guestTokenPlaceholder(index)}`;
    });
  }
  return { data: copy as T, tokens };
}

/**
 * `text` with any token of `tokens` still in it replaced by its placeholder: the safety net after rendering the
 * redacted data (a template that printed a token some other way).
 */
export function redactTokens(text: string, tokens: readonly string[]): string {
  return tokens.reduce((out, token, index) => (token.length >= MIN_TOKEN_LENGTH ? out.split(token).join(guestTokenPlaceholder(index)) : out), text);
}

/** The ledger's copy with the guest's tokens put back: what the transport is handed. */
export function restoreGuestTokens(text: string, tokens: readonly string[]): string {
  // No placeholder is part of another (each ends with ` removed]`), so the order does not matter.
  return tokens.reduce((out, token, index) => out.split(guestTokenPlaceholder(index)).join(token), text);
}

/**
 * A link with its `token` parameters taken out of the query and the fragment (an empty fragment or query dropped):
 * the page without the guest's secret, e.g. for a calendar entry, which is shared and synced beyond the guest.
 */
export function withoutGuestToken(link: string): string {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return link.replace(TOKEN_PARAMETER, '');
  }
  if (url.searchParams.has('token')) url.searchParams.delete('token');
  if (url.hash) {
    const fragment = new URLSearchParams(url.hash.slice(1));
    if (fragment.has('token')) {
      fragment.delete('token');
      url.hash = fragment.toString();
    }
  }
  return url.toString().replace(/[?#]$/, '');
}

// ---- the tokens kept sealed beside a ledger row until it is delivered ------------------------------------------

// Sealed like a reservation's own secrets (server/platform/auth/tokens.ts: AES-256-GCM under the database's
// guest-secrets key).

/** `tokens` sealed for `email_messages.guest_tokens_sealed` (null when there are none). */
export async function sealGuestTokens(knex: Knex, tokens: readonly string[]): Promise<string | null> {
  return tokens.length ? sealSecret(knex, JSON.stringify(tokens)) : null;
}

/** The tokens `sealGuestTokens` sealed (none for null), or undefined when they do not open under this database's key. */
export async function openGuestTokens(knex: Knex, sealed: string | null | undefined): Promise<string[] | undefined> {
  if (!sealed) return [];
  const opened = await openSecret(knex, sealed);
  if (!opened) return undefined;
  try {
    const tokens: unknown = JSON.parse(opened);
    return Array.isArray(tokens) && tokens.every((token) => typeof token === 'string') ? tokens : undefined;
  } catch {
    return undefined;
  }
}
