import { ApiKey } from './models.ts';
import { NotFound } from '../../platform/http/problem.ts';

/** An API key with its owner, or 404. */
export async function findKeyOrFail(id: string): Promise<ApiKey> {
  const key = await ApiKey.query().findById(id).withGraphJoined('account');
  if (!key) throw NotFound('No API key with this id.');
  return key;
}

/** API keys with their owners, newest first, optionally of one account. */
export async function listKeys(filters: { userId?: string }): Promise<ApiKey[]> {
  const keys = ApiKey.query().withGraphJoined('account').orderBy([{ column: 'api_keys.created_at', order: 'desc' }, { column: 'api_keys.id' }]);
  if (filters.userId) keys.where('api_keys.account_id', filters.userId);
  return keys;
}
