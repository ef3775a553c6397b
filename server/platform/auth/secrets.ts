import { createHash, hash, randomBytes, scrypt, timingSafeEqual, type BinaryLike, type ScryptOptions } from 'node:crypto';

export const sha256 = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();
/** One-shot `crypto.hash` (Node ≥ 20.12): on every API-key and session request, a third of createHash's cost. */
export const sha256Hex = (value: string): string => hash('sha256', value, 'hex');

/** A random URL-safe token with `bytes` of entropy (32 bytes = 256 bits). */
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/** Constant-time equality of two strings: both are hashed first, so their lengths leak nothing. */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(sha256(a), sha256(b));
}

/**
 * A shared-secret setting as the values it accepts: comma-separated, so a secret is rotated with an overlap (the new
 * one first, the old one until every caller has the new: docs/security.md#rotating-secrets).
 */
export const secretList = (value: string | undefined): string[] => (value ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);

/** Compares a presented value against precomputed SHA-256 digests; checks all of them, returns the match index or -1. */
export function matchDigest(presented: string, digests: Buffer[]): number {
  const digest = sha256(presented);
  let found = -1;
  digests.forEach((candidate, index) => {
    if (timingSafeEqual(digest, candidate) && found < 0) found = index;
  });
  return found;
}

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 64 } as const;

function scryptAsync(password: BinaryLike, salt: BinaryLike, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** `scrypt$N$r$p$salt$hash`, per-user random salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password.normalize('NFKC'), salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p });
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parts = (stored ?? '').split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') {
    // Spend the same time as a real check so unknown accounts are not told apart by timing.
    await hashPassword(password);
    return false;
  }
  const [, N, r, p, salt, hash] = parts;
  const expected = Buffer.from(hash, 'base64');
  const key = await scryptAsync(password.normalize('NFKC'), Buffer.from(salt, 'base64'), expected.length, {
    N: Number(N),
    r: Number(r),
    p: Number(p),
  });
  return timingSafeEqual(key, expected);
}
