import { type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import { webauthnServer } from '../webauthn.ts';
import type { AppContext } from '../../../platform/context.ts';
import { Unauthenticated } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { Account } from '../../accounts/index.ts';
import { storeChallenge } from '../challenges.ts';
import { passkeysOf } from '../queries.ts';
import { USER_VERIFICATION, userHandleBytes } from '../relyingParty.ts';

/**
 * The creation options for a new passkey of the signed-in account, with a fresh challenge stored for this account
 * (single-use, WEBAUTHN_CHALLENGE_TTL_SECONDS). Its passkeys are excluded, so an authenticator is not registered twice.
 */
export async function beginPasskeyRegistration(app: Pick<AppContext, 'db' | 'logger' | 'config'>, accountId: string): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const account = await Account.query().findById(accountId);
  if (!account) throw Unauthenticated('The signed-in account no longer exists.');
  const { rpId, rpName, challengeTtlSeconds } = app.config.webauthn;
  const options = await (await webauthnServer()).generateRegistrationOptions({
    rpName,
    rpID: rpId,
    userID: userHandleBytes(account.id),
    userName: account.email,
    userDisplayName: account.name,
    timeout: challengeTtlSeconds * 1000,
    attestationType: 'none',
    excludeCredentials: (await passkeysOf(account.id)).map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: USER_VERIFICATION },
  });
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, ({ trx, now }) =>
    storeChallenge(trx, { challenge: options.challenge, ceremony: 'registration', accountId: account.id, ttlSeconds: challengeTtlSeconds, now }),
  );
  return options;
}
