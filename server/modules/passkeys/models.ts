import { BaseModel, RecordModel } from '../../platform/db/model.ts';
import { Account } from '../accounts/index.ts';

export type PasskeyDeviceType = 'singleDevice' | 'multiDevice';

/** A WebAuthn credential of a dashboard account (table `passkeys`). */
export class Passkey extends BaseModel {
  static override tableName = 'passkeys';
  accountId!: string;
  /** base64url, as the authenticator names the credential. */
  credentialId!: string;
  /** The COSE public key, base64url. */
  publicKey!: string;
  /** The authenticator's signature counter at the last accepted use (0: it keeps none). */
  counter!: number;
  transports!: string[];
  deviceType!: PasskeyDeviceType;
  backedUp!: boolean;
  aaguid!: string | null;
  label!: string;
  lastUsedAt!: Date | null;
  account?: Account;

  static override get jsonAttributes() {
    return ['transports'];
  }

  // `counter` is a bigint column (an unsigned 32-bit value does not fit an integer): the pg driver reads it as a string.
  override $parseDatabaseJson(json: Record<string, unknown>) {
    const parsed = super.$parseDatabaseJson(json);
    if (parsed.counter !== undefined && parsed.counter !== null) parsed.counter = Number(parsed.counter);
    return parsed;
  }

  static override get relationMappings() {
    return {
      account: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: Account,
        join: { from: 'passkeys.account_id', to: 'accounts.id' },
      },
    };
  }
}

export type Ceremony = 'registration' | 'authentication';

/** A WebAuthn challenge handed out and not used yet (table `webauthn_challenges`); consumed by deleting it. */
export class WebauthnChallenge extends RecordModel {
  static override tableName = 'webauthn_challenges';
  id!: string;
  challenge!: string;
  ceremony!: Ceremony;
  /** The account registering a passkey; null for a sign-in. */
  accountId!: string | null;
  expiresAt!: Date;
  createdAt!: Date;
}
