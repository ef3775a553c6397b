import { json, type Call, type OperationHandlers } from '../../platform/http/handler.ts';
import { staffActor } from '../../domain/actors.ts';
import { backfillEventSlugs } from './commands/backfillEventSlugs.ts';
import { cancelEvent } from './commands/cancelEvent.ts';
import { createEventBatch } from './commands/createEventBatch.ts';
import { createShowEvent } from './commands/createShowEvent.ts';
import { closeSales, completeEvent, openSales } from './commands/eventActions.ts';
import { updateShowEvent } from './commands/updateShowEvent.ts';
import { eventLogistics } from './logistics.ts';
import type { ShowEvent } from './models.ts';
import { presentShowEvent } from './presenters.ts';
import { getShowEvent, listShowEvents, showsOf } from './service.ts';
import type { Show } from '../shows/index.ts';

const present = (call: Call, { event, show }: { event: ShowEvent; show: Show }) => presentShowEvent(event, show, call.app.config);

async function cancellation(call: Call, id: string, reason: string | null) {
  const result = await cancelEvent(call.app, { id, reason, actor: staffActor(call.auth) });
  return json(200, { event: present(call, result), alreadyCancelled: result.alreadyCancelled, hooks: result.hooks });
}

export const handlers = {
  async listShowEvents(call) {
    const { limit = 20, offset = 0, ...filters } = call.query;
    const knex = call.app.db.knex;
    const page = await listShowEvents(knex, call.app.config.venueTimezone, filters, { limit, offset });
    const shows = await showsOf(knex, page.items);
    return json(200, { ...page, items: page.items.map((event) => present(call, { event, show: shows.get(event.showId)! })) });
  },

  async getShowEvent(call) {
    const event = await getShowEvent(call.app.db.knex, call.params.eventId);
    const shows = await showsOf(call.app.db.knex, [event]);
    return json(200, present(call, { event, show: shows.get(event.showId)! }));
  },

  async createShowEvent(call) {
    return json(201, present(call, await createShowEvent(call.app.db.knex, call.app.config.venueTimezone, call.body)));
  },

  async updateShowEvent(call) {
    return json(200, present(call, await updateShowEvent(call.app.db.knex, call.app.config.venueTimezone, call.params.eventId, call.body)));
  },

  archiveShowEvent: (call) => cancellation(call, call.params.eventId, null),

  cancelShowEvent: (call) => cancellation(call, call.params.eventId, call.body.reason),

  async openShowEventSales(call) {
    return json(200, present(call, await openSales(call.app.db.knex, call.params.eventId)));
  },

  async closeShowEventSales(call) {
    return json(200, present(call, await closeSales(call.app.db.knex, call.params.eventId)));
  },

  async completeShowEvent(call) {
    return json(200, present(call, await completeEvent(call.app.db.knex, call.params.eventId)));
  },

  async getShowEventLogistics(call) {
    const knex = call.app.db.knex;
    const event = await getShowEvent(knex, call.params.eventId);
    const shows = await showsOf(knex, [event]);
    return json(200, await eventLogistics(knex, event, shows.get(event.showId)!, call.app.config));
  },

  async createShowEventBatch(call) {
    return json(200, await createEventBatch(call.app.db.knex, call.app.config.venueTimezone, call.body));
  },

  async backfillEventSlugs(call) {
    return json(200, await backfillEventSlugs(call.app.db.knex, call.app.config.venueTimezone, { dryRun: call.body.dryRun }));
  },
} satisfies Partial<OperationHandlers>;
