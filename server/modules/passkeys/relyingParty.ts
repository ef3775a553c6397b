import type { Config } from '../../platform/config.ts';

/**
 * The WebAuthn user handle of an account: its UUID's 16 bytes (opaque, no personal data, stable). Registration gives
 * it to the authenticator; a discoverable sign-in hands it back as `userHandle`, which must name the passkey's owner.
 */
export const userHandleBytes = (accountId: string): Uint8Array<ArrayBuffer> => new Uint8Array(Buffer.from(accountId.replace(/-/g, ''), 'hex'));
export const userHandleOf = (accountId: string): string => Buffer.from(userHandleBytes(accountId)).toString('base64url');

/** What every ceremony is checked against (WEBAUTHN_RP_ID, WEBAUTHN_ORIGINS). */
export function expected(config: Pick<Config, 'webauthn'>) {
  return { expectedOrigin: config.webauthn.origins, expectedRPID: config.webauthn.rpId, requireUserVerification: true };
}

/**
 * Passkeys are the only factor of a passkey sign-in, so the authenticator must verify its user (PIN, biometrics),
 * and the credential must be discoverable (the sign-in names no account).
 */
export const USER_VERIFICATION = 'required' as const;
