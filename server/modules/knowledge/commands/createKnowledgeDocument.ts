import type { operations } from '../../../../sdk/schema.d.ts';
import type { AppContext } from '../../../platform/context.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { KnowledgeDocument, type Actor, type Change } from '../models.ts';
import { assertSiteLocale, isTopicTaken, topicTaken, uniqueTags } from '../rules.ts';
import { writeRevision } from './writeRevision.ts';

export type CreateDocumentInput = operations['createKnowledgeDocument']['requestBody']['content']['application/json'];

/** Creates a `DRAFT` with revision 1 (`CREATE`, every field a change from null), in one transaction. */
export async function createKnowledgeDocument(app: Pick<AppContext, 'db' | 'config' | 'logger'>, input: CreateDocumentInput, actor: Actor): Promise<KnowledgeDocument> {
  assertSiteLocale(input.locale, app.config.siteLocales);
  const tags = uniqueTags(input.tags);
  try {
    return await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx, now }) => {
      const document = await KnowledgeDocument.query(trx).insertAndFetch({
        topic: input.topic,
        locale: input.locale,
        title: input.title,
        body: input.body,
        tags,
        status: 'DRAFT',
        revision: 1,
        createdAt: now,
        updatedAt: now,
      });
      const changes: Change[] = [
        { field: 'topic', before: null, after: input.topic },
        { field: 'locale', before: null, after: input.locale },
        { field: 'title', before: null, after: input.title },
        { field: 'body', before: null, after: input.body },
        { field: 'tags', before: null, after: tags },
        { field: 'status', before: null, after: 'DRAFT' },
      ];
      await writeRevision(trx, { documentId: document.id, revision: 1, action: 'CREATE', actor, changes, at: now });
      return document;
    });
  } catch (err) {
    if (isTopicTaken(err)) throw topicTaken();
    throw err;
  }
}
