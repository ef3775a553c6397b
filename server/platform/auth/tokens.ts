import { createCipheriv, createDecipheriv, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import { SealingKey } from '../db/models.ts';
import { sha256 } from './secrets.ts';

/**
 * Bearer tokens a guest carries (a reservation's access and check-in tokens, a waiting-list offer's, a profile's):
 * random, kept as their SHA-256 and compared in constant time; and secrets the server must be able to read again
 * (a reservation's tokens for the guest's e-mails and own view, the e-mail ledger's in-flight tokens), kept sealed
 * under a key the database itself holds. docs/flows/guest-emails.md ("How a guest's tokens are kept") says exactly
 * what is stored, and why.
 */

/** 32 random bytes, base64url: returned to its holder once. */
export const newAccessToken = (): string => randomBytes(32).toString('base64url');

/** A token's SHA-256 (what is stored in its place). */
export const digest = (secret: string): Buffer => sha256(secret);

/** Whether `presented` hashes to `stored`, in constant time (a missing token never matches). */
export function tokenMatches(presented: string | undefined, stored: Buffer | null | undefined): boolean {
  if (!presented || !stored || stored.length !== 32) return false;
  return timingSafeEqual(digest(presented), stored);
}

// ---- secrets sealed under the database's own key ---------------------------------------------------------------

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

/** The key guests' secrets are sealed under (its row's name, `reservation-secrets`, is kept from the first to use it). */
export const GUEST_SECRETS = 'reservation-secrets';

/** `plaintext` sealed (AES-256-GCM, `iv.tag.ciphertext`) under the database's key of `purpose`. */
export async function sealSecret(knex: Knex, plaintext: string, purpose: string = GUEST_SECRETS): Promise<string> {
  const key = await databaseKey(knex, purpose);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
}

/** The secret `sealSecret` sealed, or undefined when there is none or it does not open under this database's key. */
export async function openSecret(knex: Knex, sealed: string | null | undefined, purpose: string = GUEST_SECRETS): Promise<string | undefined> {
  if (!sealed) return undefined;
  const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !body || iv.length !== 12 || tag.length !== 16) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', await databaseKey(knex, purpose), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
