import type { Schema } from '../../platform/http/handler.ts';
import { iso } from '../presenting.ts';
import type { KnowledgeDocument, KnowledgeRevision } from './models.ts';

/** A knowledge document for staff (allow-list). */
export function presentDocument(document: KnowledgeDocument): Schema<'KnowledgeDocument'> {
  return {
    id: document.id,
    topic: document.topic,
    locale: document.locale,
    title: document.title,
    body: document.body,
    tags: document.tags,
    status: document.status,
    revision: document.revision,
    publishedAt: iso(document.publishedAt),
    archivedAt: iso(document.archivedAt),
    createdAt: iso(document.createdAt)!,
    updatedAt: iso(document.updatedAt)!,
  };
}

export function presentRevision(revision: KnowledgeRevision): Schema<'KnowledgeRevision'> {
  return {
    revision: revision.revision,
    action: revision.action,
    actor: { kind: revision.actorKind, id: revision.actorId, label: revision.actorLabel },
    changes: revision.changes,
    createdAt: iso(revision.createdAt)!,
  };
}

export function presentRevisionList(documentId: string, revisions: KnowledgeRevision[]): Schema<'KnowledgeRevisionList'> {
  return { documentId, items: revisions.map(presentRevision) };
}
