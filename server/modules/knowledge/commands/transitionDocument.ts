import type { AppContext } from '../../../platform/context.ts';
import { Conflict } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { KnowledgeDocument, type Actor } from '../models.ts';
import { lockDocument } from '../queries.ts';
import { canTransition } from '../rules.ts';
import { writeRevision } from './writeRevision.ts';

/**
 * Publishes or archives the document (row locked), writing the `PUBLISH` / `ARCHIVE` revision in the same
 * transaction: the shared body of ./publishKnowledgeDocument.ts and ./archiveKnowledgeDocument.ts. Asking for the
 * state the document is already in changes nothing; another illegal move is 409 `illegal_transition`.
 */
export async function transitionDocument(
  app: Pick<AppContext, 'db' | 'logger'>,
  id: string,
  to: 'PUBLISHED' | 'ARCHIVED',
  actor: Actor,
): Promise<KnowledgeDocument> {
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const document = await lockDocument(trx, id);
    if (document.status === to) return document;
    if (!canTransition(document.status, to)) {
      throw Conflict('illegal_transition', `A ${document.status.toLowerCase()} knowledge document cannot become ${to.toLowerCase()}.`);
    }
    const now = new Date();
    const revision = document.revision + 1;
    const stamp = to === 'PUBLISHED' ? { publishedAt: document.publishedAt ?? now } : { archivedAt: now };
    const updated = await KnowledgeDocument.query(trx).patchAndFetchById(id, { status: to, ...stamp, revision, updatedAt: now });
    await writeRevision(trx, {
      documentId: id,
      revision,
      action: to === 'PUBLISHED' ? 'PUBLISH' : 'ARCHIVE',
      actor,
      changes: [{ field: 'status', before: document.status, after: to }],
      at: now,
    });
    return updated;
  });
}
