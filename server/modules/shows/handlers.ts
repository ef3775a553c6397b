import type { OperationHandlers } from '../../platform/http/handler.ts';
import { json } from '../../platform/http/handler.ts';
import { staffActor } from '../../domain/actors.ts';
import { archiveShow } from './commands/archiveShow.ts';
import { createShow } from './commands/createShow.ts';
import { publishShow } from './commands/publishShow.ts';
import { unpublishShow } from './commands/unpublishShow.ts';
import { updateShow } from './commands/updateShow.ts';
import { presentShow } from './presenters.ts';
import { findShowOrFail, listShows } from './queries.ts';

export const handlers = {
  async listShows({ app, query }) {
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listShows({ status: query.status, search: query.search, limit, offset });
    return json(200, { items: page.items.map((show) => presentShow(show, app.config)), total: page.total, limit, offset });
  },

  async getShow({ app, params }) {
    return json(200, presentShow(await findShowOrFail(params.showId), app.config));
  },

  async createShow({ app, auth, body }) {
    return json(201, presentShow(await createShow(app, body, staffActor(auth)), app.config));
  },

  async updateShow({ app, auth, params, body }) {
    return json(200, presentShow(await updateShow(app, params.showId, body, staffActor(auth)), app.config));
  },

  async publishShow({ app, auth, params }) {
    return json(200, presentShow(await publishShow(app, params.showId, staffActor(auth)), app.config));
  },

  async unpublishShow({ app, auth, params }) {
    return json(200, presentShow(await unpublishShow(app, params.showId, staffActor(auth)), app.config));
  },

  async archiveShow({ app, auth, params }) {
    return json(200, presentShow(await archiveShow(app, params.showId, staffActor(auth)), app.config));
  },
} satisfies Partial<OperationHandlers>;
