import { iso } from '../presenting.ts';
import { jsonValue, type KnowledgeRow, type RevisionRow } from './service.ts';

/** A knowledge document for staff (allow-list). */
export function presentDocument(row: KnowledgeRow) {
  return {
    id: row.id,
    topic: row.topic,
    locale: row.locale,
    title: row.title,
    body: row.body,
    tags: jsonValue<string[]>(row.tags),
    status: row.status,
    revision: row.revision,
    publishedAt: iso(row.published_at),
    archivedAt: iso(row.archived_at),
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

export function presentRevision(row: RevisionRow) {
  return {
    revision: row.revision,
    action: row.action,
    actor: { kind: row.actor_kind, id: row.actor_id, label: row.actor_label },
    changes: jsonValue(row.changes),
    createdAt: iso(row.created_at)!,
  };
}
