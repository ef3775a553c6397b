import { BaseModel, RecordModel } from '../../platform/db/model.ts';

export type KnowledgeStatus = 'DRAFT' | 'PUBLISHED' | 'ARCHIVED';
export type RevisionAction = 'CREATE' | 'UPDATE' | 'PUBLISH' | 'ARCHIVE';

/** One changed field of a revision (jsonb `knowledge_revisions.changes`). */
export interface Change {
  field: 'topic' | 'locale' | 'title' | 'body' | 'tags' | 'status';
  before: string | string[] | null;
  after: string | string[];
}

/** Who made a revision. */
export interface Actor {
  kind: 'account' | 'api-key' | 'superuser-token';
  id: string | null;
  label: string;
}

/** Table `knowledge_documents`. */
export class KnowledgeDocument extends BaseModel {
  static override tableName = 'knowledge_documents';
  static override jsonAttributes = ['tags'];
  topic!: string;
  locale!: string;
  title!: string;
  body!: string;
  tags!: string[];
  status!: KnowledgeStatus;
  revision!: number;
  publishedAt!: Date | null;
  archivedAt!: Date | null;
}

/** Table `knowledge_revisions`. */
export class KnowledgeRevision extends RecordModel {
  static override tableName = 'knowledge_revisions';
  static override jsonAttributes = ['changes'];
  id!: string;
  documentId!: string;
  revision!: number;
  action!: RevisionAction;
  actorKind!: Actor['kind'];
  actorId!: string | null;
  actorLabel!: string;
  changes!: Change[];
  createdAt!: Date;
}
