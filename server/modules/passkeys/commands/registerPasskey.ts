import { type RegistrationResponseJSON, type VerifiedRegistrationResponse } from '@simplewebauthn/server';
import { webauthnServer } from '../webauthn.ts';
import type { operations } from '../../../../sdk/schema.d.ts';
import type { AppContext } from '../../../platform/context.ts';
import { Conflict, Problem } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { isUniqueViolation } from '../../../platform/db/uniqueViolation.ts';
import { challengeOf, consumeChallenge } from '../challenges.ts';
import { Passkey } from '../models.ts';
import { expected } from '../relyingParty.ts';

export type RegisterPasskeyInput = operations['registerPasskey']['requestBody']['content']['application/json'];

/**
 * Verifies the authenticator's registration response against a challenge this account was given (consumed first:
 * used once whatever the outcome), the configured origins and RP ID, with user presence and verification; then
 * stores the credential (409 when it is registered already).
 */
export async function registerPasskey(app: Pick<AppContext, 'db' | 'logger' | 'config'>, accountId: string, body: RegisterPasskeyInput): Promise<Passkey> {
  const challenge = challengeOf(body.credential.response.clientDataJSON, 'webauthn.create');
  await consumeChallenge(app.db.knex, { challenge, ceremony: 'registration', accountId, now: new Date() });

  let verification: VerifiedRegistrationResponse;
  try {
    verification = await (await webauthnServer()).verifyRegistrationResponse({
      // The contract validated the shape; the library checks every value.
      response: body.credential as unknown as RegistrationResponseJSON,
      expectedChallenge: challenge,
      ...expected(app.config),
    });
  } catch (err) {
    throw new Problem(400, 'passkey_verification_failed', 'Passkey not verified', { detail: (err as Error).message, cause: err });
  }
  if (!verification.verified) throw new Problem(400, 'passkey_verification_failed', 'Passkey not verified', { detail: 'The registration response does not verify.' });
  const info = verification.registrationInfo;

  try {
    return await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
      const count = await Passkey.query(trx).where('account_id', accountId).resultSize();
      return Passkey.query(trx).insertAndFetch({
        accountId,
        credentialId: info.credential.id,
        publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
        counter: info.credential.counter,
        transports: info.credential.transports ?? body.credential.response.transports ?? [],
        deviceType: info.credentialDeviceType,
        backedUp: info.credentialBackedUp,
        aaguid: info.aaguid,
        label: body.label?.trim() || `Passkey ${count + 1}`,
        lastUsedAt: null,
      });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw Conflict('passkey_already_registered', 'This passkey is already registered.');
    throw err;
  }
}
