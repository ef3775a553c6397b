import type { AppContext } from '../../../platform/context.ts';
import type { StaffActor } from '../../../domain/actors.ts';
import type { Show } from '../models.ts';
import { setShowPublished } from './setShowPublished.ts';

/** `DRAFT` → `PUBLISHED` (`publishedAt` now); already published: unchanged; archived: 409 `show_archived`. */
export function publishShow(app: AppContext, id: string, actor: StaffActor): Promise<Show> {
  return setShowPublished(app, id, true, actor);
}
