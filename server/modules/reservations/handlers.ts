import type { Call, OperationHandlers } from '../../platform/http/handler.ts';
import { json } from '../../platform/http/handler.ts';
import { staffActor } from '../../domain/actors.ts';
import { batchUpdateReservationStatuses } from './commands/batchUpdateReservationStatuses.ts';
import { cancelReservation } from './commands/cancelReservation.ts';
import { confirmReservation } from './commands/confirmReservation.ts';
import { createReservation } from './commands/createReservation.ts';
import { markReservationNoShow } from './commands/markReservationNoShow.ts';
import { updateReservation } from './commands/updateReservation.ts';
import { presentReservationSummary, presentStaffReservation } from './presenters.ts';
import { listReservations, staffReservation } from './queries.ts';

/** The reservation as it is now, presented for staff. */
async function answer<S extends 200 | 201 = 200>(call: Call, id: string, status: S = 200 as S) {
  const { reservation, payments } = await staffReservation(call.app.db.knex, id);
  return json(status, presentStaffReservation(reservation, payments, call.app.config.defaultLocale, new Date()));
}

export const handlers = {
  async listReservations(call) {
    const { query } = call;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const now = new Date();
    const page = await listReservations(call.app.db.knex, { ...query, sort: query.sort ?? 'newest', limit, offset }, call.app.config.venueTimezone, now);
    return json(200, { items: page.items.map((reservation) => presentReservationSummary(reservation, call.app.config.defaultLocale, now)), total: page.total, limit, offset });
  },

  getReservation: (call) => answer(call, call.params.reservationId),

  async createReservation(call) {
    const id = await createReservation(call.app, staffActor(call.auth), call.body);
    return answer(call, id, 201);
  },

  async updateReservation(call) {
    await updateReservation(call.app, staffActor(call.auth), call.params.reservationId, call.body);
    return answer(call, call.params.reservationId);
  },

  async confirmReservation(call) {
    await confirmReservation(call.app, staffActor(call.auth), call.params.reservationId);
    return answer(call, call.params.reservationId);
  },

  async cancelReservation(call) {
    await cancelReservation(call.app, staffActor(call.auth), call.params.reservationId, call.body?.reason ?? null);
    return answer(call, call.params.reservationId);
  },

  async markReservationNoShow(call) {
    await markReservationNoShow(call.app, staffActor(call.auth), call.params.reservationId);
    return answer(call, call.params.reservationId);
  },

  async batchUpdateReservationStatuses(call) {
    return json(200, await batchUpdateReservationStatuses(call.app, staffActor(call.auth), call.body));
  },
} satisfies Partial<OperationHandlers>;
