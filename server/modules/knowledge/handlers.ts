import type { OperationHandlers } from '../../platform/http/handler.ts';
import { json } from '../../platform/http/handler.ts';
import { createDocument } from './commands/createDocument.ts';
import { transitionDocument } from './commands/transitionDocument.ts';
import { updateDocument } from './commands/updateDocument.ts';
import { presentDocument, presentRevision } from './presenters.ts';
import { actorOf, findDocumentOrFail, listDocuments, listRevisions } from './service.ts';

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
    return json(201, presentDocument(await createDocument(app, body, actorOf(auth))));
  },

  async updateKnowledgeDocument({ app, params, body, auth }) {
    return json(200, presentDocument(await updateDocument(app, params.documentId, body, actorOf(auth))));
  },

  async publishKnowledgeDocument({ app, params, auth }) {
    return json(200, presentDocument(await transitionDocument(app, params.documentId, 'PUBLISHED', actorOf(auth))));
  },

  async archiveKnowledgeDocument({ app, params, auth }) {
    return json(200, presentDocument(await transitionDocument(app, params.documentId, 'ARCHIVED', actorOf(auth))));
  },

  async listKnowledgeRevisions({ app, params }) {
    const rows = await listRevisions(app.db.knex, params.documentId);
    return json(200, { documentId: params.documentId, items: rows.map(presentRevision) });
  },
} satisfies Partial<OperationHandlers>;
