import type { AuthContext } from '../platform/auth/context.ts';

/**
 * Who acts on the venue's records: a staff member or machine credential (from the request's identity), the guest
 * with its own token, or the system (jobs, gateway callbacks, a cancelled show event).
 */
export interface StaffActor {
  role: AuthContext['role'];
  authSource: AuthContext['authSource'];
  accountId: string | null;
  apiKeyId: string | null;
}

export type Actor = StaffActor | 'GUEST' | 'SYSTEM';

/** The staff actor of a request. */
export function staffActor(auth: AuthContext): StaffActor {
  return { role: auth.role, authSource: auth.authSource, accountId: auth.identity.accountId ?? null, apiKeyId: auth.identity.apiKeyId ?? null };
}

/** How an actor is written down on the rows it touches (`recorded_by`, `requested_by`). */
export const actorLabel = (actor: Actor): string =>
  typeof actor === 'string' ? actor : (actor.accountId ?? (actor.apiKeyId ? `api-key:${actor.apiKeyId}` : 'superuser-token'));
