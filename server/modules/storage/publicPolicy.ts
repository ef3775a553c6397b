import type { PolicyEntry } from '../../platform/http/policy.ts';

/**
 * Public API policy entries of the storage module: only the public asset route, by its exact path (the key is
 * a query parameter). Everything else here is staff (`/api/storage/`) or superuser (`/api/sudo/`) by the base
 * families.
 */
export const policy: PolicyEntry[] = [{ path: '/api/public/assets', match: 'exact', methods: ['GET', 'HEAD'], level: 'public' }];
