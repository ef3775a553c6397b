import type { AccountRole, MemberRole, Role } from './roles.ts';

/** How the caller proved who it is. `anonymous` when nothing was presented or nothing was accepted. */
export type AuthSource = 'api-key' | 'api-token' | 'session' | 'anonymous';

export interface AuthContext {
  role: Role;
  authSource: AuthSource;
  /** `<resource>:<action>`; only API-key requests carry any. */
  permissions: string[];
  identity: {
    accountId?: string;
    email?: string;
    name?: string;
    accountRole?: AccountRole;
    sessionId?: string;
    sessionExpiresAt?: Date;
    activeOrganizationId?: string | null;
    memberRole?: MemberRole | null;
    apiKeyId?: string;
    apiKeyName?: string;
    apiKeyStart?: string;
    apiKeyExpiresAt?: Date | null;
    /** Which configured superuser token matched (its position), never the token. */
    superuserTokenIndex?: number;
  };
}

export const ANONYMOUS: AuthContext = Object.freeze({
  role: 'public',
  authSource: 'anonymous',
  permissions: [],
  identity: {},
}) as AuthContext;
