import { createCipheriv, createDecipheriv, createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import { SealingKey } from './models.ts';

/**
 * The booking module's secrets: guest access tokens and lead references (random, compared by their SHA-256 in
 * constant time) and reservation references (short, unambiguous). A lead reference is kept as its SHA-256 only; a
 * reservation's access and check-in tokens are also kept sealed (below) for the guest's e-mails and own view:
 * docs/flows/guest-emails.md ("How a guest's tokens are kept") says exactly what is stored, and why.
 */

/** 32 random bytes, base64url: returned to the guest once. */
export const newAccessToken = (): string => randomBytes(32).toString('base64url');

/** `L` + 24 random bytes, base64url: the lead reference a guest carries from lead capture into booking. */
export const newLeadReference = (): string => `L${randomBytes(24).toString('base64url')}`;

export const digest = (secret: string): Buffer => createHash('sha256').update(secret, 'utf8').digest();

/** Whether `presented` hashes to `stored`, in constant time (a missing token never matches). */
export function tokenMatches(presented: string | undefined, stored: Buffer | null | undefined): boolean {
  if (!presented || !stored || stored.length !== 32) return false;
  return timingSafeEqual(digest(presented), stored);
}

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

// ---- a reservation's secrets, sealed under the database's own key --------------------------------------------

/**
 * The random key of one purpose, kept in the database (`sealing_keys`, made on first use), so every instance on
 * one database seals and opens alike without configuration. Read per call: a database reset makes a new key.
 * Sealing keeps the tokens out of every answer and out of a copy of one table; whoever reads the whole database
 * (or a full backup) can open them (docs/flows/guest-emails.md).
 */
async function databaseKey(knex: Knex, purpose: string): Promise<Buffer> {
  const existing = await SealingKey.query(knex).findById(purpose);
  if (existing) return Buffer.from(existing.secret);
  await SealingKey.query(knex).insert({ purpose, secret: randomBytes(32) }).onConflict('purpose').ignore();
  const made = await SealingKey.query(knex).findById(purpose);
  return Buffer.from(made!.secret);
}

const RESERVATION_SECRETS = 'reservation-secrets';

/** `plaintext` sealed (AES-256-GCM, `iv.tag.ciphertext`) under the database's reservation-secrets key. */
export async function sealSecret(knex: Knex, plaintext: string): Promise<string> {
  const key = await databaseKey(knex, RESERVATION_SECRETS);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
}

/** The secret `sealSecret` sealed, or undefined when there is none or it does not open under this database's key. */
export async function openSecret(knex: Knex, sealed: string | null | undefined): Promise<string | undefined> {
  if (!sealed) return undefined;
  const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !body || iv.length !== 12 || tag.length !== 16) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', await databaseKey(knex, RESERVATION_SECRETS), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
