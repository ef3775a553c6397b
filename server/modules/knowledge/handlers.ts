import type { OperationHandlers } from '../../platform/http/handler.ts';
import { json } from '../../platform/http/handler.ts';
import { archiveKnowledgeDocument } from './commands/archiveKnowledgeDocument.ts';
import { createKnowledgeDocument } from './commands/createKnowledgeDocument.ts';
import { publishKnowledgeDocument } from './commands/publishKnowledgeDocument.ts';
import { updateKnowledgeDocument } from './commands/updateKnowledgeDocument.ts';
import { presentDocument, presentRevisionList } from './presenters.ts';
import { findDocumentOrFail, listDocuments, listRevisions } from './queries.ts';
import { actorOf } from './rules.ts';

/** The assistant's knowledge, managed from the dashboard: staff read, admins write (spec §4.1). */
export const handlers = {
  async listKnowledgeDocuments({ app, query }) {
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listDocuments(app.db.knex, { status: query.status, locale: query.locale, tag: query.tag, q: query.q, limit, offset });
    return json(200, { items: page.items.map(presentDocument), total: page.total, limit, offset });
  },

  async getKnowledgeDocument({ app, params }) {
    return json(200, presentDocument(await findDocumentOrFail(app.db.knex, params.documentId)));
  },

  async createKnowledgeDocument({ app, body, auth }) {
    return json(201, presentDocument(await createKnowledgeDocument(app, body, actorOf(auth))));
  },

  async updateKnowledgeDocument({ app, params, body, auth }) {
    return json(200, presentDocument(await updateKnowledgeDocument(app, params.documentId, body, actorOf(auth))));
  },

  async publishKnowledgeDocument({ app, params, auth }) {
    return json(200, presentDocument(await publishKnowledgeDocument(app, params.documentId, actorOf(auth))));
  },

  async archiveKnowledgeDocument({ app, params, auth }) {
    return json(200, presentDocument(await archiveKnowledgeDocument(app, params.documentId, actorOf(auth))));
  },

  async listKnowledgeRevisions({ app, params }) {
    return json(200, presentRevisionList(params.documentId, await listRevisions(app.db.knex, params.documentId)));
  },
} satisfies Partial<OperationHandlers>;
