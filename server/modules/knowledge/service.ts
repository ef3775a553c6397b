import type { Knex } from 'knex';
import type { AuthContext } from '../../platform/auth/context.ts';
import { NotFound, Unprocessable } from '../../platform/http/problem.ts';
import { isUniqueViolation } from '../accounts/index.ts';
import { likeContaining } from '../shows/index.ts';

/**
 * Knowledge documents (DOMAIN.md "Assistant, chat and analytics"): the staff reads here, the writes in
 * `commands/` (each one transaction that also writes the revision), the assistant's published read in
 * `published.ts`.
 */
export type KnowledgeStatus = 'DRAFT' | 'PUBLISHED' | 'ARCHIVED';
export type RevisionAction = 'CREATE' | 'UPDATE' | 'PUBLISH' | 'ARCHIVE';

export interface KnowledgeRow {
  id: string;
  topic: string;
  locale: string;
  title: string;
  body: string;
  tags: string[] | string;
  status: KnowledgeStatus;
  revision: number;
  published_at: Date | string | null;
  archived_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface RevisionRow {
  revision: number;
  action: RevisionAction;
  actor_kind: Actor['kind'];
  actor_id: string | null;
  actor_label: string;
  changes: Change[] | string;
  created_at: Date | string;
}

export interface Change {
  field: 'topic' | 'locale' | 'title' | 'body' | 'tags' | 'status';
  before: string | string[] | null;
  after: string | string[];
}

export interface Actor {
  kind: 'account' | 'api-key' | 'superuser-token';
  id: string | null;
  label: string;
}

/** Who acts, from the request's credential: an account (its e-mail), an API key (its name), or a superuser token. */
export function actorOf(auth: AuthContext): Actor {
  const { identity } = auth;
  // An API key's identity may also name the account that owns it: the key is who acted.
  if (identity.apiKeyId) return { kind: 'api-key', id: identity.apiKeyId, label: identity.apiKeyName ?? identity.apiKeyId };
  if (identity.accountId) return { kind: 'account', id: identity.accountId, label: identity.email ?? identity.accountId };
  return { kind: 'superuser-token', id: null, label: 'superuser-token' };
}

/** jsonb comes back parsed from pg and PGlite alike, but a driver handing back text is tolerated. */
export const jsonValue = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

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

export async function findDocumentOrFail(knex: Knex | Knex.Transaction, id: string, options: { forUpdate?: boolean } = {}): Promise<KnowledgeRow> {
  const query = knex<KnowledgeRow>('knowledge_documents').where('id', id).first();
  if (options.forUpdate) query.forUpdate();
  const row = (await query) as KnowledgeRow | undefined;
  if (!row) throw NotFound('No such knowledge document.');
  return row;
}

export interface DocumentFilters {
  status?: KnowledgeStatus;
  locale?: string;
  tag?: string;
  q?: string;
  limit: number;
  offset: number;
}

/** Documents by last change (newest first), then id; `q` in the topic, title or body (case-insensitive). */
export async function listDocuments(knex: Knex, filters: DocumentFilters): Promise<{ items: KnowledgeRow[]; total: number }> {
  const base = knex('knowledge_documents');
  if (filters.status) base.where('status', filters.status);
  if (filters.locale) base.where('locale', filters.locale);
  if (filters.tag) base.whereRaw('tags @> jsonb_build_array(?::text)', [filters.tag]);
  if (filters.q) {
    const pattern = likeContaining(filters.q);
    base.where((q) => q.where('topic', 'ilike', pattern).orWhere('title', 'ilike', pattern).orWhere('body', 'ilike', pattern));
  }
  const [items, counted] = await Promise.all([
    base.clone().select('*').orderBy([{ column: 'updated_at', order: 'desc' }, { column: 'id' }]).limit(filters.limit).offset(filters.offset),
    base.clone().count<{ count: string | number }[]>({ count: '*' }),
  ]);
  return { items: items as KnowledgeRow[], total: Number(counted[0].count) };
}

export async function listRevisions(knex: Knex, documentId: string): Promise<RevisionRow[]> {
  await findDocumentOrFail(knex, documentId);
  return knex<RevisionRow>('knowledge_revisions').where('document_id', documentId).orderBy('revision', 'desc').select('*');
}

/** Writes the document's next revision (the caller has bumped `revision` on the row, in the same transaction). */
export async function writeRevision(
  trx: Knex.Transaction,
  input: { documentId: string; revision: number; action: RevisionAction; actor: Actor; changes: Change[]; at: Date },
): Promise<void> {
  await trx('knowledge_revisions').insert({
    document_id: input.documentId,
    revision: input.revision,
    action: input.action,
    actor_kind: input.actor.kind,
    actor_id: input.actor.id,
    actor_label: input.actor.label,
    changes: JSON.stringify(input.changes),
    created_at: input.at,
  });
}
