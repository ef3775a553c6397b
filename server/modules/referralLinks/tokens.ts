import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import { signingKey } from './queries.ts';

/**
 * Signed attribution tokens (`ra1.<payload>.<signature>`, base64url): the link, its code and partner, and an
 * expiry, HMAC-SHA256 under the database's own random key (`referral_signing_keys`, made on first use), so every
 * instance signs and verifies alike without configuration. Nothing personal is in a token.
 */
export const ATTRIBUTION_TTL_DAYS = 30;

export interface Attribution {
  linkId: string;
  codeId: string | null;
  partnerId: string;
  expiresAt: Date;
}

const mac = (key: Buffer, payload: string) => createHmac('sha256', key).update(`referral-attribution\0${payload}`).digest();

export async function signAttribution(knex: Knex, a: Attribution): Promise<string> {
  const payload = Buffer.from(JSON.stringify({ l: a.linkId, c: a.codeId, p: a.partnerId, x: Math.floor(a.expiresAt.getTime() / 1000) })).toString('base64url');
  return `ra1.${payload}.${mac(await signingKey(knex), payload).toString('base64url')}`;
}

/** The token's attribution, `'expired'`, or `'invalid'` (malformed or not signed by this database's key). */
export async function verifyAttribution(knex: Knex, token: string, now: Date): Promise<Attribution | 'expired' | 'invalid'> {
  const [version, payload, signature] = token.split('.');
  if (version !== 'ra1' || !payload || !signature) return 'invalid';
  const expected = mac(await signingKey(knex), payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  let body: { l?: unknown; c?: unknown; p?: unknown; x?: unknown };
  try {
    body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return 'invalid';
  }
  if (typeof body.l !== 'string' || typeof body.p !== 'string' || typeof body.x !== 'number' || (body.c !== null && typeof body.c !== 'string')) return 'invalid';
  const expiresAt = new Date(body.x * 1000);
  if (expiresAt <= now) return 'expired';
  return { linkId: body.l, codeId: body.c as string | null, partnerId: body.p, expiresAt };
}
