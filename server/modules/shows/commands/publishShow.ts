import type { AppContext } from '../../../platform/context.ts';
import type { Show } from '../models.ts';
import { setShowPublished } from './setShowPublished.ts';

/** `DRAFT` → `PUBLISHED` (`publishedAt` now); already published: unchanged; archived: 409 `show_archived`. */
export function publishShow(app: Pick<AppContext, 'db' | 'logger' | 'notifications'>, id: string): Promise<Show> {
  return setShowPublished(app, id, true);
}
