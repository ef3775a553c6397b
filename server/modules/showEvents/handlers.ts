import { json, type Call, type OperationHandlers } from '../../platform/http/handler.ts';
import { staffActor } from '../../domain/actors.ts';
import type { Show } from '../shows/index.ts';
import { archiveShowEvent } from './commands/archiveShowEvent.ts';
import { backfillEventSlugs } from './commands/backfillEventSlugs.ts';
import { cancelShowEvent } from './commands/cancelShowEvent.ts';
import type { cancelEvent } from './commands/cancellationFlow.ts';
import { closeShowEventSales } from './commands/closeShowEventSales.ts';
import { completeShowEvent } from './commands/completeShowEvent.ts';
import { createShowEvent } from './commands/createShowEvent.ts';
import { createShowEventBatch } from './commands/createShowEventBatch.ts';
import { openShowEventSales } from './commands/openShowEventSales.ts';
import { updateShowEvent } from './commands/updateShowEvent.ts';
import { eventLogistics } from './logistics.ts';
import type { ShowEvent } from './models.ts';
import { presentShowEvent } from './presenters.ts';
import { getShowEvent, listShowEvents, showsOf } from './queries.ts';

const present = (call: Call, { event, show }: { event: ShowEvent; show: Show }) => presentShowEvent(event, show, call.app.config);

const presentCancellation = (call: Call, result: Awaited<ReturnType<typeof cancelEvent>>) =>
  json(200, { event: present(call, result), alreadyCancelled: result.alreadyCancelled, hooks: result.hooks });

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
    return json(201, present(call, await createShowEvent(call.app, call.body, staffActor(call.auth))));
  },

  async updateShowEvent(call) {
    return json(200, present(call, await updateShowEvent(call.app, call.params.eventId, call.body, staffActor(call.auth))));
  },

  async archiveShowEvent(call) {
    return presentCancellation(call, await archiveShowEvent(call.app, call.params.eventId, staffActor(call.auth)));
  },

  async cancelShowEvent(call) {
    return presentCancellation(call, await cancelShowEvent(call.app, call.params.eventId, call.body.reason, staffActor(call.auth)));
  },

  async openShowEventSales(call) {
    return json(200, present(call, await openShowEventSales(call.app, call.params.eventId, staffActor(call.auth))));
  },

  async closeShowEventSales(call) {
    return json(200, present(call, await closeShowEventSales(call.app, call.params.eventId, staffActor(call.auth))));
  },

  async completeShowEvent(call) {
    return json(200, present(call, await completeShowEvent(call.app, call.params.eventId, staffActor(call.auth))));
  },

  async getShowEventLogistics(call) {
    const knex = call.app.db.knex;
    const event = await getShowEvent(knex, call.params.eventId);
    const shows = await showsOf(knex, [event]);
    return json(200, await eventLogistics(knex, event, shows.get(event.showId)!, call.app.config));
  },

  async createShowEventBatch(call) {
    return json(200, await createShowEventBatch(call.app, call.body, staffActor(call.auth)));
  },

  async backfillEventSlugs(call) {
    return json(200, await backfillEventSlugs(call.app, { dryRun: call.body.dryRun }, staffActor(call.auth)));
  },
} satisfies Partial<OperationHandlers>;
