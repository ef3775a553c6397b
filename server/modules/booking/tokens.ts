import { randomBytes, randomInt } from 'node:crypto';

/**
 * The booking module's own formats: lead references (random, kept as their SHA-256 only) and reservation
 * references (short, unambiguous). Random tokens, their digests and sealing are the platform's
 * (server/platform/auth/tokens.ts); docs/flows/guest-emails.md ("How a guest's tokens are kept") says exactly what
 * is stored, and why.
 */

/** `L` + 24 random bytes, base64url: the lead reference a guest carries from lead capture into booking. */
export const newLeadReference = (): string => `L${randomBytes(24).toString('base64url')}`;

/** No 0/O, 1/I/L: a reference read over the phone is not misheard. */
const REFERENCE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

/** `VN-7K3Q9P`: six characters of a 31-letter alphabet (≈ 887 million references). */
export function newReservationReference(): string {
  let code = '';
  for (let i = 0; i < 6; i++) code += REFERENCE_ALPHABET[randomInt(REFERENCE_ALPHABET.length)];
  return `VN-${code}`;
}

/** A reference as typed (`vn-7k3q9p`, spaces) in its stored form, or undefined when it cannot be one. */
export function normalizeReference(raw: string): string | undefined {
  const value = raw.trim().toUpperCase();
  return /^VN-[0-9A-Z]{6}$/.test(value) ? value : undefined;
}
