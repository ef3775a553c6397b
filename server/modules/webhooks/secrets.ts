import type { Knex } from 'knex';
import { openSecret, sealSecret } from '../../platform/auth/tokens.ts';
import type { WebhookEndpoint } from './models.ts';

/**
 * Endpoints' signing secrets at rest (issue 36 §3): sealed under the database's own key of this purpose
 * (server/platform/auth/tokens.ts), since every delivery must read them again; never in an answer but the one that
 * creates or rotates them.
 */
const PURPOSE = 'webhook-secrets';

export const sealWebhookSecret = (knex: Knex, secret: string): Promise<string> => sealSecret(knex, secret, PURPOSE);

/**
 * The secrets a delivery at `now` signs with: the endpoint's own, then, during a rotation's overlap, the one it
 * replaced. Empty when the current one does not open (a database whose sealing key was replaced): nothing can be signed.
 */
export async function signingSecrets(knex: Knex, endpoint: WebhookEndpoint, now: Date): Promise<string[]> {
  const current = await openSecret(knex, endpoint.secretSealed, PURPOSE);
  if (!current) return [];
  const overlapping = endpoint.previousSecretSealed && endpoint.previousSecretExpiresAt && new Date(endpoint.previousSecretExpiresAt) > now;
  const previous = overlapping ? await openSecret(knex, endpoint.previousSecretSealed, PURPOSE) : undefined;
  return previous ? [current, previous] : [current];
}
