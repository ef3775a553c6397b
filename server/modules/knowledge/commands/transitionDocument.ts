import type { AppContext } from '../../../platform/context.ts';
import { Conflict } from '../../../platform/http/problem.ts';
import { findDocumentOrFail, writeRevision, type Actor, type KnowledgeRow, type KnowledgeStatus } from '../service.ts';

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

/** Publishes or archives the document (row locked), writing the `PUBLISH` / `ARCHIVE` revision in the same transaction. */
export async function transitionDocument(app: Pick<AppContext, 'db'>, id: string, to: 'PUBLISHED' | 'ARCHIVED', actor: Actor): Promise<KnowledgeRow> {
  return app.db.knex.transaction(async (trx) => {
    const row = await findDocumentOrFail(trx, id, { forUpdate: true });
    if (row.status === to) return row;
    if (!canTransition(row.status, to)) {
      throw Conflict('illegal_transition', `A ${row.status.toLowerCase()} knowledge document cannot become ${to.toLowerCase()}.`);
    }
    const now = new Date();
    const revision = row.revision + 1;
    const stamp = to === 'PUBLISHED' ? { published_at: row.published_at ?? now } : { archived_at: now };
    const [updated] = (await trx('knowledge_documents').where('id', id).update({ status: to, ...stamp, revision, updated_at: now }).returning('*')) as KnowledgeRow[];
    await writeRevision(trx, {
      documentId: id,
      revision,
      action: to === 'PUBLISHED' ? 'PUBLISH' : 'ARCHIVE',
      actor,
      changes: [{ field: 'status', before: row.status, after: to }],
      at: now,
    });
    return updated;
  });
}
