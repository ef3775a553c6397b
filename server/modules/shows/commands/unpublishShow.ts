import type { AppContext } from '../../../platform/context.ts';
import type { StaffActor } from '../../../domain/actors.ts';
import type { Show } from '../models.ts';
import { setShowPublished } from './setShowPublished.ts';

/** `PUBLISHED` → `DRAFT` (`publishedAt` cleared); already a draft: unchanged; archived: 409 `show_archived`. */
export function unpublishShow(app: AppContext, id: string, actor: StaffActor): Promise<Show> {
  return setShowPublished(app, id, false, actor);
}
