import type { operations } from '../../../../sdk/schema.d.ts';
import type { AppContext } from '../../../platform/context.ts';
import { Conflict } from '../../../platform/http/problem.ts';
import { assertSiteLocale, findDocumentOrFail, isTopicTaken, jsonValue, uniqueTags, writeRevision, type Actor, type Change, type KnowledgeRow } from '../service.ts';
import { topicTaken } from './createDocument.ts';

export type UpdateDocumentInput = operations['updateKnowledgeDocument']['requestBody']['content']['application/json'];

export const documentArchived = () => Conflict('knowledge_archived', 'An archived knowledge document is read-only.');

const TEXT_FIELDS = ['topic', 'locale', 'title', 'body'] as const;

/**
 * Changes a draft's or a published document's fields (a published one stays published). The row is locked, the
 * changed fields (before/after) go into the next revision; a request that changes nothing writes nothing.
 */
export async function updateDocument(app: Pick<AppContext, 'db' | 'config'>, id: string, input: UpdateDocumentInput, actor: Actor): Promise<KnowledgeRow> {
  assertSiteLocale(input.locale, app.config.siteLocales);
  try {
    return await app.db.knex.transaction(async (trx) => {
      const row = await findDocumentOrFail(trx, id, { forUpdate: true });
      if (row.status === 'ARCHIVED') throw documentArchived();
      const changes: Change[] = [];
      const patch: Record<string, unknown> = {};
      for (const field of TEXT_FIELDS) {
        const value = input[field];
        if (value !== undefined && value !== row[field]) {
          changes.push({ field, before: row[field], after: value });
          patch[field] = value;
        }
      }
      if (input.tags !== undefined) {
        const before = jsonValue<string[]>(row.tags);
        const after = uniqueTags(input.tags);
        if (JSON.stringify(before) !== JSON.stringify(after)) {
          changes.push({ field: 'tags', before, after });
          patch.tags = JSON.stringify(after);
        }
      }
      if (!changes.length) return row;
      const now = new Date();
      const revision = row.revision + 1;
      const [updated] = (await trx('knowledge_documents').where('id', id).update({ ...patch, revision, updated_at: now }).returning('*')) as KnowledgeRow[];
      await writeRevision(trx, { documentId: id, revision, action: 'UPDATE', actor, changes, at: now });
      return updated;
    });
  } catch (err) {
    if (isTopicTaken(err)) throw topicTaken();
    throw err;
  }
}
