import type { UploadedFile } from './handler.ts';
import type { Logger } from '../logger.ts';
import type { Role, MemberRole, AccountRole } from '../auth/roles.ts';

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

export interface AppState {
  requestId: string;
  log: Logger;
  auth: AuthContext;
  /** Set by the body parser when the request carried a body. */
  hasBody?: boolean;
  /** The declared media type the body was taken as (lower case, no parameters). */
  mediaType?: string;
  /** The body's bytes: raw media types, and JSON for operations with `x-raw-body: true`. */
  rawBody?: Buffer;
  /** multipart/form-data files by field. */
  files?: Record<string, UploadedFile[]>;
}
