import type { AuthContext } from '../../platform/auth/context.ts';
import { Conflict, Unprocessable } from '../../platform/http/problem.ts';
import { isUniqueViolation } from '../../platform/db/uniqueViolation.ts';
import type { Actor, KnowledgeStatus } from './models.ts';

/** Who acts, from the request's credential: an account (its e-mail), an API key (its name), or a superuser token. */
export function actorOf(auth: AuthContext): Actor {
  const { identity } = auth;
  // An API key's identity may also name the account that owns it: the key is who acted.
  if (identity.apiKeyId) return { kind: 'api-key', id: identity.apiKeyId, label: identity.apiKeyName ?? identity.apiKeyId };
  if (identity.accountId) return { kind: 'account', id: identity.accountId, label: identity.email ?? identity.accountId };
  return { kind: 'superuser-token', id: null, label: 'superuser-token' };
}

/** Tags without duplicates, in their first order. */
export const uniqueTags = (tags: readonly string[] | undefined): string[] => [...new Set(tags ?? [])];

/** 422 `unknown_locale` unless `locale` is one of SITE_LOCALES. */
export function assertSiteLocale(locale: string | undefined, siteLocales: readonly string[]): void {
  if (locale === undefined || siteLocales.includes(locale)) return;
  throw Unprocessable('unknown_locale', `The locale must be one of ${siteLocales.join(', ')}.`, [
    { path: 'body/locale', message: `must be one of ${siteLocales.join(', ')}`, code: 'unknown_locale' },
  ]);
}

/** A violation of the partial unique index on (topic, locale) of documents that are not archived. */
export function isTopicTaken(err: unknown): boolean {
  if (!isUniqueViolation(err)) return false;
  const e = err as { constraint?: string; nativeError?: { constraint?: string } };
  const constraint = e.constraint ?? e.nativeError?.constraint;
  return constraint === undefined || constraint === 'knowledge_documents_topic_locale_unique';
}

export const topicTaken = () => Conflict('topic_taken', 'Another document that is not archived has this topic in this locale.');
export const documentArchived = () => Conflict('knowledge_archived', 'An archived knowledge document is read-only.');

/**
 * The document's states (DOMAIN.md): `DRAFT` → `PUBLISHED` → `ARCHIVED`, and a draft may be archived directly.
 * Asking for the state a document is already in changes nothing; every other move is 409 `illegal_transition`.
 */
const TRANSITIONS: Record<KnowledgeStatus, KnowledgeStatus[]> = {
  DRAFT: ['PUBLISHED', 'ARCHIVED'],
  PUBLISHED: ['ARCHIVED'],
  ARCHIVED: [],
};

export const canTransition = (from: KnowledgeStatus, to: KnowledgeStatus) => TRANSITIONS[from].includes(to);
