import { type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { webauthnServer } from '../webauthn.ts';
import type { AppContext } from '../../../platform/context.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { storeChallenge } from '../challenges.ts';
import { throttleSignInChallenge } from '../limits.ts';
import { USER_VERIFICATION } from '../relyingParty.ts';

/**
 * The request options of a passkey sign-in: a fresh challenge, stored (single-use, WEBAUTHN_CHALLENGE_TTL_SECONDS),
 * and no credential named: the authenticator offers its discoverable passkeys for this RP ID. 30 per address a minute.
 */
export async function beginPasskeySignIn(app: Pick<AppContext, 'db' | 'logger' | 'config' | 'passkeyChallengeLimit'>, ip: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
  await throttleSignInChallenge(app, ip);
  const { rpId, challengeTtlSeconds } = app.config.webauthn;
  const options = await (await webauthnServer()).generateAuthenticationOptions({ rpID: rpId, timeout: challengeTtlSeconds * 1000, userVerification: USER_VERIFICATION });
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, ({ trx, now }) =>
    storeChallenge(trx, { challenge: options.challenge, ceremony: 'authentication', accountId: null, ttlSeconds: challengeTtlSeconds, now }),
  );
  return options;
}
