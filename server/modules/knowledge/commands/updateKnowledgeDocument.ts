import type { operations } from '../../../../sdk/schema.d.ts';
import type { AppContext } from '../../../platform/context.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { KnowledgeDocument, type Actor, type Change } from '../models.ts';
import { lockDocument } from '../queries.ts';
import { assertSiteLocale, documentArchived, isTopicTaken, topicTaken, uniqueTags } from '../rules.ts';
import { writeRevision } from './writeRevision.ts';

export type UpdateDocumentInput = operations['updateKnowledgeDocument']['requestBody']['content']['application/json'];

const TEXT_FIELDS = ['topic', 'locale', 'title', 'body'] as const;

/**
 * Changes a draft's or a published document's fields (a published one stays published). The row is locked, the
 * changed fields (before/after) go into the next revision; a request that changes nothing writes nothing.
 */
export async function updateKnowledgeDocument(
  app: Pick<AppContext, 'db' | 'config' | 'logger'>,
  id: string,
  input: UpdateDocumentInput,
  actor: Actor,
): Promise<KnowledgeDocument> {
  assertSiteLocale(input.locale, app.config.siteLocales);
  try {
    return await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
      const document = await lockDocument(trx, id);
      if (document.status === 'ARCHIVED') throw documentArchived();
      const changes: Change[] = [];
      const patch: Partial<Pick<KnowledgeDocument, (typeof TEXT_FIELDS)[number] | 'tags'>> = {};
      for (const field of TEXT_FIELDS) {
        const value = input[field];
        if (value !== undefined && value !== document[field]) {
          changes.push({ field, before: document[field], after: value });
          patch[field] = value;
        }
      }
      if (input.tags !== undefined) {
        const before = document.tags;
        const after = uniqueTags(input.tags);
        if (JSON.stringify(before) !== JSON.stringify(after)) {
          changes.push({ field: 'tags', before, after });
          patch.tags = after;
        }
      }
      if (!changes.length) return document;
      const now = new Date();
      const revision = document.revision + 1;
      const updated = await KnowledgeDocument.query(trx).patchAndFetchById(id, { ...patch, revision, updatedAt: now });
      await writeRevision(trx, { documentId: id, revision, action: 'UPDATE', actor, changes, at: now });
      return updated;
    });
  } catch (err) {
    if (isTopicTaken(err)) throw topicTaken();
    throw err;
  }
}
