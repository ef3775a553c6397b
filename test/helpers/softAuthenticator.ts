import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software WebAuthn authenticator for server-side specs: an ES256 (P-256) key pair from node:crypto, and the
 * responses a browser would hand back — `none` attestation on registration (authenticator data with the RP ID hash,
 * flags, counter, attested credential data and the COSE public key, CBOR-encoded), and signed assertions on sign-in.
 * Every field can be bent (`origin`, `rpId`, `challenge`, `counter`, `userVerified`, `userHandle`) to build the
 * responses a server must refuse.
 */

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_BE = 0x08;
const FLAG_BS = 0x10;
const FLAG_AT = 0x40;

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const b64url = (data: Uint8Array) => Buffer.from(data).toString('base64url');

export interface CeremonyOverrides {
  origin?: string;
  rpId?: string;
  challenge?: string;
  userVerified?: boolean;
  type?: string;
}

export interface RegistrationJSON {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string; attestationObject: string; transports: string[] };
  clientExtensionResults: Record<string, unknown>;
  authenticatorAttachment: 'platform' | 'cross-platform';
}

export interface AssertionJSON {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle?: string };
  clientExtensionResults: Record<string, unknown>;
  authenticatorAttachment: 'platform' | 'cross-platform';
}

export class SoftAuthenticator {
  readonly credentialId = randomBytes(32);
  /** The signature counter the next assertion reports (then it moves on by `counterStep`); 0 keeps none. */
  counter: number;
  /** The user handle registration gave (what a discoverable sign-in hands back). */
  userHandle: string | undefined;
  private readonly privateKey: KeyObject;
  private readonly cosePublicKey: Uint8Array;

  constructor(
    readonly origin: string,
    readonly rpId: string,
    private readonly options: { counterStep?: number; backedUp?: boolean; startCounter?: number } = {},
  ) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    // COSE_Key (RFC 9053): kty EC2 (2), alg ES256 (-7), crv P-256 (1), x, y.
    this.cosePublicKey = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
        [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
      ]),
    );
    this.counter = options.startCounter ?? 0;
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  /** The response to registration options (`navigator.credentials.create()`), attestation `none`. */
  register(options: { challenge: string; user: { id: string } }, overrides: CeremonyOverrides = {}): RegistrationJSON {
    this.userHandle = options.user.id;
    const clientDataJSON = this.clientData(overrides.type ?? 'webauthn.create', overrides.challenge ?? options.challenge, overrides.origin);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      this.authDataHead(FLAG_AT, overrides, this.counter),
      Buffer.alloc(16), // AAGUID: none
      idLength,
      this.credentialId,
      this.cosePublicKey,
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** A signed assertion for request options (`navigator.credentials.get()`); the counter moves on first. */
  assert(options: { challenge: string }, overrides: CeremonyOverrides & { counter?: number; userHandle?: string | null; signWith?: KeyObject } = {}): AssertionJSON {
    if (overrides.counter !== undefined) this.counter = overrides.counter;
    else if (this.counter > 0 || (this.options.counterStep ?? 1) > 0) this.counter += this.options.counterStep ?? 1;
    const clientDataJSON = this.clientData(overrides.type ?? 'webauthn.get', overrides.challenge ?? options.challenge, overrides.origin);
    const authData = this.authDataHead(0, overrides, this.counter);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), overrides.signWith ?? this.privateKey);
    const userHandle = overrides.userHandle === null ? undefined : (overrides.userHandle ?? this.userHandle);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(userHandle ? { userHandle } : {}),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  private clientData(type: string, challenge: string, origin = this.origin): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');
  }

  /** rpIdHash (32) | flags (1) | signCount (4, big-endian). */
  private authDataHead(extraFlags: number, overrides: CeremonyOverrides, counter: number): Buffer {
    let flags = FLAG_UP | extraFlags;
    if (overrides.userVerified ?? true) flags |= FLAG_UV;
    if (this.options.backedUp) flags |= FLAG_BE | FLAG_BS;
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(overrides.rpId ?? this.rpId), Buffer.from([flags]), count]);
  }
}

/** Another key pair, to sign an assertion with the wrong key. */
export const strangerKey = () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
