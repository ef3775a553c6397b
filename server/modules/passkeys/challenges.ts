import type { Knex } from 'knex';
import { Problem } from '../../platform/http/problem.ts';
import { WebauthnChallenge, type Ceremony } from './models.ts';

/**
 * Server-side WebAuthn challenges: each is stored when a ceremony begins and deleted when a response names it, so it
 * is used at most once whatever the outcome, and refused past its expiry. The challenge a response answers is read
 * from its `clientDataJSON` (the browser puts it there); the signature over it is checked afterwards by
 * @simplewebauthn/server against exactly that value.
 */

/** Stores a challenge for `ttlSeconds`; expired ones are swept on the way (they are never usable again anyway). */
export async function storeChallenge(
  trx: Knex.Transaction,
  input: { challenge: string; ceremony: Ceremony; accountId: string | null; ttlSeconds: number; now: Date },
): Promise<void> {
  await WebauthnChallenge.query(trx).delete().where('expires_at', '<=', input.now);
  await WebauthnChallenge.query(trx).insert({
    challenge: input.challenge,
    ceremony: input.ceremony,
    accountId: input.accountId,
    expiresAt: new Date(input.now.getTime() + input.ttlSeconds * 1000),
  });
}

/**
 * Consumes the challenge `clientDataJSON` names: deleted in one statement (two concurrent responses cannot both
 * have it), then checked — of this ceremony, of this account (registration), unexpired. Anything else is 400
 * `passkey_challenge_invalid`.
 */
export async function consumeChallenge(
  knex: Knex,
  input: { challenge: string; ceremony: Ceremony; accountId: string | null; now: Date },
): Promise<void> {
  const [row] = (await WebauthnChallenge.query(knex).delete().where('challenge', input.challenge).returning('*')) as unknown as WebauthnChallenge[];
  const invalid = (why: string) => new Problem(400, 'passkey_challenge_invalid', 'Invalid challenge', { detail: `The challenge ${why}; begin again.` });
  if (!row) throw invalid('is unknown or already used');
  if (row.ceremony !== input.ceremony || row.accountId !== input.accountId) throw invalid('was not given for this ceremony');
  if (new Date(row.expiresAt).getTime() <= input.now.getTime()) throw invalid('has expired');
}

/**
 * The challenge a WebAuthn response answers, read from its base64url `clientDataJSON`; 400
 * `passkey_response_malformed` when that is not the client data of the expected ceremony type.
 */
export function challengeOf(clientDataJSON: string, type: 'webauthn.create' | 'webauthn.get'): string {
  let data: unknown;
  try {
    data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
  } catch {
    data = undefined;
  }
  const client = data as { type?: unknown; challenge?: unknown } | undefined;
  if (!client || typeof client !== 'object' || typeof client.challenge !== 'string' || !client.challenge || client.type !== type) {
    throw new Problem(400, 'passkey_response_malformed', 'Malformed WebAuthn response', {
      detail: `credential.response.clientDataJSON is not base64url JSON client data of a ${type} ceremony.`,
    });
  }
  return client.challenge;
}
