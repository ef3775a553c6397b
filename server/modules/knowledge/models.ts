import { BaseModel, RecordModel } from '../../platform/db/model.ts';

/** Table `knowledge_documents`. */
export class KnowledgeDocument extends BaseModel {
  static override tableName = 'knowledge_documents';
  static override jsonAttributes = ['tags'];
  topic!: string;
  locale!: string;
  title!: string;
  body!: string;
  tags!: unknown;
  status!: string;
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
  action!: string;
  actorKind!: string;
  actorId!: string | null;
  actorLabel!: string;
  changes!: unknown;
  createdAt!: Date;
}
