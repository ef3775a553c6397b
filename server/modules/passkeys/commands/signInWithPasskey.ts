import { type AuthenticationResponseJSON, type VerifiedAuthenticationResponse } from '@simplewebauthn/server';
import { webauthnServer } from '../webauthn.ts';
import type { operations } from '../../../../sdk/schema.d.ts';
import type { AppContext } from '../../../platform/context.ts';
import type { ReplyCookie } from '../../../platform/http/handler.ts';
import { Forbidden, Problem } from '../../../platform/http/problem.ts';
import type { AuthContext } from '../../../platform/http/state.ts';
import type { Logger } from '../../../platform/logger.ts';
import type { OrganizationMember } from '../../accounts/index.ts';
import { startSession } from '../../auth/index.ts';
import { challengeOf, consumeChallenge } from '../challenges.ts';
import { Passkey } from '../models.ts';
import { findByCredentialId } from '../queries.ts';
import { expected, userHandleOf } from '../relyingParty.ts';

export interface SignInWithPasskeyInput {
  credential: operations['signInWithPasskey']['requestBody']['content']['application/json']['credential'];
  ip: string;
  userAgent: string;
  log: Logger;
}

const notRecognized = () =>
  new Problem(401, 'passkey_not_recognized', 'Invalid credentials', { detail: 'This passkey is not recognized here, or its assertion does not verify.' });

/**
 * Signs in with a passkey, to a session exactly like a password sign-in's (auth's `startSession`), under the same
 * throttle (`app.signInThrottle`: the credential + address pair and the address, counted before anything is
 * verified). The challenge is consumed first; the passkey must exist (a removed or revoked one, or one whose account
 * was deleted, does not), its assertion verify (origin, RP ID, signature, user verification), its user handle name
 * its owner, and its signature counter advance past the stored one, checked and stored in one conditional update so
 * two uses of one assertion cannot both pass. A banned account is 403 `account_banned`.
 */
export async function signInWithPasskey(
  app: AppContext,
  input: SignInWithPasskeyInput,
): Promise<{ auth: AuthContext; memberships: OrganizationMember[]; cookie: ReplyCookie }> {
  const { credential, ip, log } = input;
  const challenge = challengeOf(credential.response.clientDataJSON, 'webauthn.get');
  const identifier = `passkey:${credential.id}`;
  await app.signInThrottle.begin(identifier, ip);
  await consumeChallenge(app.db.knex, { challenge, ceremony: 'authentication', accountId: null, now: new Date() });

  const passkey = await findByCredentialId(credential.id);
  if (!passkey?.account) {
    log.info({ passkeyFound: false }, 'passkey sign-in failed');
    throw notRecognized();
  }
  if (credential.response.userHandle !== undefined && credential.response.userHandle !== userHandleOf(passkey.accountId)) {
    log.warn({ passkeyId: passkey.id }, 'passkey sign-in failed: the user handle names another account');
    throw notRecognized();
  }

  let verification: VerifiedAuthenticationResponse;
  try {
    verification = await (await webauthnServer()).verifyAuthenticationResponse({
      response: credential as unknown as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      ...expected(app.config),
      // The counter is checked below, atomically with storing the new one; the library is given 0 so that it
      // verifies the signature only.
      credential: { id: passkey.credentialId, publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')), counter: 0, transports: passkey.transports },
    });
  } catch (err) {
    log.info({ passkeyId: passkey.id, reason: (err as Error).message }, 'passkey sign-in failed');
    throw notRecognized();
  }
  if (!verification.verified) throw notRecognized();

  const { newCounter, credentialBackedUp } = verification.authenticationInfo;
  const advanced = Passkey.query(app.db.knex)
    .patch({ counter: newCounter, backedUp: credentialBackedUp, lastUsedAt: new Date() })
    .where('id', passkey.id);
  // An authenticator that keeps no counter always reports 0; one that does must report more than last time.
  if (newCounter === 0) advanced.where('counter', 0);
  else advanced.where('counter', '<', newCounter);
  if ((await advanced) === 0) {
    log.warn({ passkeyId: passkey.id, accountId: passkey.accountId, newCounter, storedCounter: passkey.counter }, 'passkey sign-in refused: the signature counter did not advance (replay or cloned authenticator)');
    throw new Problem(401, 'passkey_counter_regressed', 'Invalid credentials', {
      detail: 'The authenticator’s signature counter did not advance: a replayed sign-in or a cloned authenticator.',
    });
  }

  const account = passkey.account;
  if (account.isBanned()) throw Forbidden('account_banned', 'This account is banned.');
  await app.signInThrottle.succeeded(identifier, ip);
  return startSession(app, account, { ip, userAgent: input.userAgent });
}
