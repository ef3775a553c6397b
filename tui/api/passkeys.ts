import { unwrap, type Schemas, type VenueClient } from '../../sdk/index.ts';

export type Passkey = Schemas['Passkey'];

/** An account's passkeys, oldest first. */
export async function listAccountPasskeys(client: VenueClient, accountId: string): Promise<Passkey[]> {
  return unwrap(await client.GET('/api/sudo/users/{userId}/passkeys', { params: { path: { userId: accountId } } })).items;
}

/** Revokes one of an account's passkeys: it signs in no more (the sessions it opened stay). */
export async function revokePasskey(client: VenueClient, accountId: string, passkeyId: string): Promise<void> {
  unwrap(await client.DELETE('/api/sudo/users/{userId}/passkeys/{passkeyId}', { params: { path: { userId: accountId, passkeyId } } }));
}
