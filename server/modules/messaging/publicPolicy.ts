import type { PolicyEntry } from '../../platform/http/policy.ts';

/**
 * The WhatsApp webhook: GET (verification, guarded by its verify token) and POST (Meta's notifications, guarded
 * by the app secret's signature) are public; `/api/messaging/send` stays under the base `/api/` entry (staff),
 * and its handler's x-access demands admin.
 */
export const policy: PolicyEntry[] = [{ path: '/api/messaging/webhook', match: 'exact', methods: ['GET', 'HEAD', 'POST'], level: 'public' }];
