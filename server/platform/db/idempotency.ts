import type { Knex } from 'knex';
import { Unprocessable } from '../http/problem.ts';
import { IdempotencyKey } from './models.ts';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { sha256 as digest } from '../auth/secrets.ts';

/**
 * The Idempotency-Key ledger (`idempotency_keys`, 24 h) shared by every route that honours the header: the hold
 * (POST /api/public/reservations) and the referral payouts. A key is stored hashed and scoped to its route; the
 * remembered answer is sealed with a key derived from the client's Idempotency-Key (`seal` below), so an
 * access token inside it is unreadable without that key. The same key with another body is 422
 * `idempotency_key_reused`. Concurrent requests with one key serialize on `lockIdempotencyKey`.
 */
export const IDEMPOTENCY_TTL_HOURS = 24;

/** JSON with object keys sorted (undefined members left out): the same body hashes the same whatever its key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The request body's hash an answer is remembered under (the same key with another body is refused). */
export const requestHash = (body: unknown): Buffer => createHash('sha256').update(canonical(body)).digest();

/** The answer remembered for `key` on `route` within the TTL (unsealed JSON text), or undefined. */
export async function rememberedAnswer(knex: Knex, route: string, key: string, requestHash: Buffer, now: Date): Promise<{ status: number; body: string } | undefined> {
  const row = await IdempotencyKey.query(knex)
    .where({ route, key_hash: digest(key) })
    .andWhere('created_at', '>', new Date(now.getTime() - IDEMPOTENCY_TTL_HOURS * 3_600_000))
    .first();
  if (!row) return undefined;
  if (!Buffer.from(row.requestHash).equals(requestHash)) {
    throw Unprocessable('idempotency_key_reused', 'This Idempotency-Key was used with another request body in the last 24 hours.', [
      { path: 'header/idempotency-key', message: 'was used with another body', code: 'idempotency_key_reused' },
    ]);
  }
  return { status: row.responseStatus, body: unseal(key, row.responseBody) };
}

/** Serializes the transactions that carry one key on one route (a transaction-scoped advisory lock). */
export async function lockIdempotencyKey(trx: Knex.Transaction, route: string, key: string): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`${route} ${key}`]);
}

/**
 * Remembers `body` (JSON text) as the answer to `key` on `route`, in the caller's transaction (an expired entry is
 * replaced; `{ forgotten: true }` when the caller has already removed it with `forgetAnswer`).
 */
export async function rememberAnswer(trx: Knex.Transaction, route: string, key: string, requestHash: Buffer, status: number, body: string, now: Date, options: { forgotten?: boolean } = {}): Promise<void> {
  if (!options.forgotten) await forgetAnswer(trx, route, key);
  await IdempotencyKey.query(trx).insert({ route, keyHash: digest(key), requestHash, responseStatus: status, responseBody: seal(key, body), createdAt: now });
}

/**
 * Removes what is stored for `key` on `route` (an expired answer: call it under `lockIdempotencyKey`, once
 * `rememberedAnswer` found none within the TTL). Lets a command clear the way early, outside a lock it takes later.
 */
export async function forgetAnswer(trx: Knex.Transaction, route: string, key: string): Promise<void> {
  await IdempotencyKey.query(trx).delete().where({ route, key_hash: digest(key) });
}

// ---- Idempotency-Key answers, sealed with a key derived from the client's Idempotency-Key --------------------

const sealKey = (idempotencyKey: string) => createHash('sha256').update(`booking-idempotency-seal\0${idempotencyKey}`, 'utf8').digest();

/** AES-256-GCM under a key only the client's Idempotency-Key yields: `iv.tag.ciphertext`, base64url. */
export function seal(idempotencyKey: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(idempotencyKey), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
}

export function unseal(idempotencyKey: string, sealed: string): string {
  const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  const decipher = createDecipheriv('aes-256-gcm', sealKey(idempotencyKey), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}
