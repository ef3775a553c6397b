import type { operations } from '../../../../sdk/schema.d.ts';
import type { AppContext } from '../../../platform/context.ts';
import { Conflict } from '../../../platform/http/problem.ts';
import { assertSiteLocale, isTopicTaken, uniqueTags, writeRevision, type Actor, type Change, type KnowledgeRow } from '../service.ts';

export type CreateDocumentInput = operations['createKnowledgeDocument']['requestBody']['content']['application/json'];

export const topicTaken = () => Conflict('topic_taken', 'Another document that is not archived has this topic in this locale.');

/** Creates a `DRAFT` with revision 1 (`CREATE`, every field a change from null), in one transaction. */
export async function createDocument(app: Pick<AppContext, 'db' | 'config'>, input: CreateDocumentInput, actor: Actor): Promise<KnowledgeRow> {
  assertSiteLocale(input.locale, app.config.siteLocales);
  const tags = uniqueTags(input.tags);
  const now = new Date();
  try {
    return await app.db.knex.transaction(async (trx) => {
      const [row] = (await trx('knowledge_documents')
        .insert({ topic: input.topic, locale: input.locale, title: input.title, body: input.body, tags: JSON.stringify(tags), status: 'DRAFT', revision: 1, created_at: now, updated_at: now })
        .returning('*')) as KnowledgeRow[];
      const changes: Change[] = [
        { field: 'topic', before: null, after: input.topic },
        { field: 'locale', before: null, after: input.locale },
        { field: 'title', before: null, after: input.title },
        { field: 'body', before: null, after: input.body },
        { field: 'tags', before: null, after: tags },
        { field: 'status', before: null, after: 'DRAFT' },
      ];
      await writeRevision(trx, { documentId: row.id, revision: 1, action: 'CREATE', actor, changes, at: now });
      return row;
    });
  } catch (err) {
    if (isTopicTaken(err)) throw topicTaken();
    throw err;
  }
}
