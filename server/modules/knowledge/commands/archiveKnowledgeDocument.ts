import type { AppContext } from '../../../platform/context.ts';
import type { Actor, KnowledgeDocument } from '../models.ts';
import { transitionDocument } from './transitionDocument.ts';

/** `DRAFT` or `PUBLISHED` → `ARCHIVED` (read-only from then on), with the `ARCHIVE` revision. */
export async function archiveKnowledgeDocument(app: Pick<AppContext, 'db' | 'logger'>, id: string, actor: Actor): Promise<KnowledgeDocument> {
  return transitionDocument(app, id, 'ARCHIVED', actor);
}
