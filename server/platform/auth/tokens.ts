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
 * one database seals and opens alike without configuration. Sealing keeps the tokens out of every answer and out of
 * a copy of one table; whoever reads the whole database (or a full backup) can open them
 * (docs/flows/guest-emails.md).
 *
 * A key once committed never changes (nothing updates or deletes its row), so it is kept per database (the
 * connection settings every transaction of one knex shares) after it is first read from a row that was already
 * there — not one this transaction just made, which a rollback may take back (issue 37 §2: one statement less per
 * hold). A database emptied under a running process (the test suite's reset) calls `forgetSealingKeys`.
 */
async function databaseKey(knex: Knex, purpose: string): Promise<Buffer> {
  const database = knex.client.config as { [KEPT_KEYS]?: Map<string, Buffer> };
  const cached = database[KEPT_KEYS]?.get(purpose);
  if (cached) return cached;
  const existing = await SealingKey.query(knex).findById(purpose);
  if (existing) {
    const key = Buffer.from(existing.secret);
    if (!madeIn.has(knex)) (database[KEPT_KEYS] ??= new Map()).set(purpose, key);
    return key;
  }
  await SealingKey.query(knex).insert({ purpose, secret: randomBytes(32) }).onConflict('purpose').ignore();
  madeIn.add(knex);
  const made = await SealingKey.query(knex).findById(purpose);
  return Buffer.from(made!.secret);
}

/**
 * Committed keys by purpose, kept on the database's knex settings (shared by its transactions) under a registered
 * symbol, so two copies of this module in one process (a spec's and the server's) keep and forget the same keys.
 */
const KEPT_KEYS = Symbol.for('venue.sealingKeys');
/** Transactions (or knexes) in which a key row was inserted: what they read of it is not kept. */
const madeIn = new WeakSet<Knex>();

/** Forgets the kept keys of `knex`'s database: one emptied under a running process (test/helpers/database.ts `resetData`). */
export function forgetSealingKeys(knex: Knex): void {
  delete (knex.client.config as { [KEPT_KEYS]?: Map<string, Buffer> })[KEPT_KEYS];
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
