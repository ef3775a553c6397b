import { BaseModel } from '../../platform/db/model.ts';

/** Table `sessions`: a dashboard sign-in (only its token's hash is stored). The auth module owns it: only its commands
 * and ./sessions.ts write it (a ban or a password reset ends an account's sessions through ./subscribers.ts). */
export class Session extends BaseModel {
  static override tableName = 'sessions';
  tokenHash!: string;
  accountId!: string;
  activeOrganizationId!: string | null;
  expiresAt!: Date;
  /** When the session last proved who its account is (a password or passkey sign-in): recent sign-in checks read it. */
  authenticatedAt!: Date;
  ip!: string | null;
  userAgent!: string | null;
}
