import { unwrap, type Schemas, type VenueClient } from '../../sdk/index.ts';
import { toPermissionMap } from '../../server/platform/auth/permissions.ts';
import { parseExpiry } from './dates.ts';

export { flattenPermissions } from '../../server/platform/auth/permissions.ts';

export type ApiKey = Schemas['ApiKey'];
export type PermissionMap = Schemas['PermissionMap'];
export interface Grantable {
  permission: string;
  operations: string[];
}

/** `vk_abcdefgh…`: all that is ever shown of a key after its creation screen. */
export const keyStart = (apiKey: Pick<ApiKey, 'start'>) => `${apiKey.start}…`;

export async function listApiKeys(client: VenueClient): Promise<ApiKey[]> {
  return unwrap(await client.GET('/api/sudo/api-keys')).items;
}

/** The permissions the server lets a key hold (the contract's `x-permission` values of key-callable operations). */
export async function listGrantablePermissions(client: VenueClient): Promise<Grantable[]> {
  return unwrap(await client.GET('/api/sudo/api-keys/permissions')).items;
}

export interface NewApiKey {
  name: string;
  ownerId: string;
  permissions: string[];
  /** Blank: never expires. */
  expires: string;
}

/** Returns the plaintext key (this is the only time the server gives it) with the stored key. */
export async function createApiKey(client: VenueClient, input: NewApiKey): Promise<{ key: string; apiKey: ApiKey }> {
  const expiresAt = parseExpiry(input.expires, 'body/expiresAt');
  return unwrap(
    await client.POST('/api/sudo/api-keys', {
      body: { name: input.name.trim(), userId: input.ownerId, permissions: toPermissionMap(input.permissions), expiresAt },
    }),
  );
}

export async function setApiKeyEnabled(client: VenueClient, apiKeyId: string, enabled: boolean): Promise<ApiKey> {
  return unwrap(await client.PATCH('/api/sudo/api-keys/{apiKeyId}', { params: { path: { apiKeyId } }, body: { enabled } }));
}

export async function setApiKeyExpiry(client: VenueClient, apiKeyId: string, expires: string): Promise<ApiKey> {
  const expiresAt = parseExpiry(expires, 'body/expiresAt');
  return unwrap(await client.PATCH('/api/sudo/api-keys/{apiKeyId}', { params: { path: { apiKeyId } }, body: { expiresAt } }));
}

export async function deleteApiKey(client: VenueClient, apiKeyId: string): Promise<void> {
  unwrap(await client.DELETE('/api/sudo/api-keys/{apiKeyId}', { params: { path: { apiKeyId } } }));
}

export async function renameApiKey(client: VenueClient, apiKeyId: string, name: string): Promise<ApiKey> {
  return unwrap(await client.PATCH('/api/sudo/api-keys/{apiKeyId}', { params: { path: { apiKeyId } }, body: { name: name.trim() } }));
}

/** Replaces the key's permissions (`resource:action` strings); the server checks them as at creation. */
export async function setApiKeyPermissions(client: VenueClient, apiKeyId: string, permissions: string[]): Promise<ApiKey> {
  return unwrap(
    await client.PATCH('/api/sudo/api-keys/{apiKeyId}', { params: { path: { apiKeyId } }, body: { permissions: toPermissionMap(permissions) } }),
  );
}
