import type { AppContext } from '../../../platform/context.ts';
import type { Actor, KnowledgeDocument } from '../models.ts';
import { transitionDocument } from './transitionDocument.ts';

/** `DRAFT` → `PUBLISHED` (its first publication time kept), with the `PUBLISH` revision. */
export async function publishKnowledgeDocument(app: Pick<AppContext, 'db' | 'logger'>, id: string, actor: Actor): Promise<KnowledgeDocument> {
  return transitionDocument(app, id, 'PUBLISHED', actor);
}
