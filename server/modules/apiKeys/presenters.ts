import type { Schema } from '../../platform/http/handler.ts';
import { iso } from '../presenting.ts';
import type { ApiKey } from './models.ts';

/** An API key as it leaves the server: never the key nor its hash, only its first characters. */
export function presentApiKey(key: ApiKey): Schema<'ApiKey'> {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    start: key.start,
    ownerId: key.accountId,
    ownerEmail: key.account?.email ?? '',
    enabled: key.enabled,
    expiresAt: iso(key.expiresAt),
    permissions: key.permissions ?? {},
    requestCount: Number(key.requestCount),
    lastUsedAt: iso(key.lastUsedAt),
    createdAt: iso(key.createdAt)!,
    updatedAt: iso(key.updatedAt)!,
  };
}
