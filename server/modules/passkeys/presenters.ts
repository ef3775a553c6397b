import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialDescriptorJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { Schema } from '../../platform/http/handler.ts';
import { iso } from '../presenting.ts';
import type { Passkey } from './models.ts';

/** A passkey as its owner and superusers see it: never its public key or credential id. */
export function presentPasskey(passkey: Passkey): Schema<'Passkey'> {
  return {
    id: passkey.id,
    label: passkey.label,
    deviceType: passkey.deviceType,
    backedUp: passkey.backedUp,
    transports: passkey.transports,
    createdAt: iso(passkey.createdAt)!,
    lastUsedAt: iso(passkey.lastUsedAt),
  };
}

export const presentPasskeyList = (passkeys: Passkey[]): Schema<'PasskeyList'> => ({ items: passkeys.map(presentPasskey) });

/** The creation options as the contract declares them (WebAuthn's JSON shape; the RP ID is always named). */
export function presentCreationOptions(options: PublicKeyCredentialCreationOptionsJSON): Schema<'PasskeyCreationOptions'> {
  return {
    rp: { name: options.rp.name, id: options.rp.id! },
    user: { id: options.user.id, name: options.user.name, displayName: options.user.displayName },
    challenge: options.challenge,
    pubKeyCredParams: options.pubKeyCredParams.map((param) => ({ type: param.type, alg: param.alg })),
    timeout: options.timeout!,
    excludeCredentials: (options.excludeCredentials ?? []).map(presentDescriptor),
    authenticatorSelection: { ...options.authenticatorSelection },
    attestation: options.attestation ?? 'none',
    ...(options.extensions ? { extensions: { ...options.extensions } } : {}),
    ...(options.hints ? { hints: [...options.hints] } : {}),
  };
}

/** The request options as the contract declares them. */
export function presentRequestOptions(options: PublicKeyCredentialRequestOptionsJSON): Schema<'PasskeyRequestOptions'> {
  return {
    challenge: options.challenge,
    rpId: options.rpId!,
    timeout: options.timeout!,
    userVerification: options.userVerification ?? 'required',
    allowCredentials: (options.allowCredentials ?? []).map(presentDescriptor),
    ...(options.extensions ? { extensions: { ...options.extensions } } : {}),
    ...(options.hints ? { hints: [...options.hints] } : {}),
  };
}

const presentDescriptor = (descriptor: PublicKeyCredentialDescriptorJSON) => ({
  id: descriptor.id,
  type: 'public-key' as const,
  ...(descriptor.transports ? { transports: [...descriptor.transports] } : {}),
});
