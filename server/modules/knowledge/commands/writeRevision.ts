import type { Knex } from 'knex';
import { KnowledgeRevision, type Actor, type Change, type RevisionAction } from '../models.ts';

/** Writes the document's next revision (the caller has bumped `revision` on the row, in the same transaction). */
export async function writeRevision(
  trx: Knex.Transaction,
  input: { documentId: string; revision: number; action: RevisionAction; actor: Actor; changes: Change[]; at: Date },
): Promise<void> {
  await KnowledgeRevision.query(trx).insert({
    documentId: input.documentId,
    revision: input.revision,
    action: input.action,
    actorKind: input.actor.kind,
    actorId: input.actor.id,
    actorLabel: input.actor.label,
    changes: input.changes,
    createdAt: input.at,
  });
}
