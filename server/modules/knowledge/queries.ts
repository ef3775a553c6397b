import type { Knex } from 'knex';
import { NotFound } from '../../platform/http/problem.ts';
import { likeContaining } from '../shows/index.ts';
import { KnowledgeDocument, KnowledgeRevision, type KnowledgeStatus } from './models.ts';

/**
 * Knowledge documents (DOMAIN.md "Assistant, chat and analytics"): the staff reads here, the writes in
 * `commands/` (each one transaction that also writes the revision), the assistant's published read in
 * `published.ts` (its rows read here).
 */

const NoSuchDocument = () => NotFound('No such knowledge document.');

export async function findDocumentOrFail(knex: Knex, id: string): Promise<KnowledgeDocument> {
  const document = await KnowledgeDocument.query(knex).findById(id);
  if (!document) throw NoSuchDocument();
  return document;
}

/** The document locked for the rest of the transaction (404 when there is none). */
export async function lockDocument(trx: Knex.Transaction, id: string): Promise<KnowledgeDocument> {
  const document = await KnowledgeDocument.query(trx).findById(id).forUpdate();
  if (!document) throw NoSuchDocument();
  return document;
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
export async function listDocuments(knex: Knex, filters: DocumentFilters): Promise<{ items: KnowledgeDocument[]; total: number }> {
  const base = KnowledgeDocument.query(knex);
  if (filters.status) base.where('status', filters.status);
  if (filters.locale) base.where('locale', filters.locale);
  if (filters.tag) base.whereRaw('tags @> jsonb_build_array(?::text)', [filters.tag]);
  if (filters.q) {
    const pattern = likeContaining(filters.q);
    base.where((q) => q.where('topic', 'ilike', pattern).orWhere('title', 'ilike', pattern).orWhere('body', 'ilike', pattern));
  }
  const [items, total] = await Promise.all([
    base.clone().orderBy([{ column: 'updated_at', order: 'desc' }, { column: 'id' }]).limit(filters.limit).offset(filters.offset),
    base.clone().resultSize(),
  ]);
  return { items, total };
}

export async function listRevisions(knex: Knex, documentId: string): Promise<KnowledgeRevision[]> {
  await findDocumentOrFail(knex, documentId);
  return KnowledgeRevision.query(knex).where('document_id', documentId).orderBy('revision', 'desc');
}

/** The published documents in these locales, by topic then locale (what the assistant's read matches). */
export async function publishedDocumentsIn(knex: Knex, locales: string[]): Promise<Array<Pick<KnowledgeDocument, 'topic' | 'locale' | 'title' | 'body' | 'tags'>>> {
  return KnowledgeDocument.query(knex)
    .where('status', 'PUBLISHED')
    .whereIn('locale', locales)
    .orderBy([{ column: 'topic' }, { column: 'locale' }])
    .select('topic', 'locale', 'title', 'body', 'tags');
}
