import type { Call, OperationHandlers } from '../../platform/http/handler.ts';
import { json } from '../../platform/http/handler.ts';
import { staffActor } from '../../domain/actors.ts';
import { batchUpdateStatuses } from './commands/batchUpdateStatuses.ts';
import { cancelByStaff, confirmByStaff, markNoShowByStaff } from './commands/changeStatus.ts';
import { createStaffReservation } from './commands/createStaffReservation.ts';
import { updateReservation } from './commands/updateReservation.ts';
import { presentReservationSummary, presentStaffReservation } from './presenters.ts';
import { listReservations, staffReservation } from './service.ts';

/** The reservation as it is now, presented for staff. */
async function answer<S extends 200 | 201 = 200>(call: Call, id: string, status: S = 200 as S) {
  const { row, payments } = await staffReservation(call.app.db.knex, id);
  return json(status, presentStaffReservation(row, payments, call.app.config.defaultLocale, new Date()));
}

export const handlers = {
  async listReservations(call) {
    const { query } = call;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const now = new Date();
    const page = await listReservations(call.app.db.knex, { ...query, sort: query.sort ?? 'newest', limit, offset }, call.app.config.venueTimezone, now);
    return json(200, { items: page.items.map((row) => presentReservationSummary(row, call.app.config.defaultLocale, now)), total: page.total, limit, offset });
  },

  getReservation: (call) => answer(call, call.params.reservationId),

  async createReservation(call) {
    const id = await createStaffReservation(call.app, staffActor(call.auth), call.body);
    return answer(call, id, 201);
  },

  async updateReservation(call) {
    await updateReservation(call.app, staffActor(call.auth), call.params.reservationId, call.body);
    return answer(call, call.params.reservationId);
  },

  async confirmReservation(call) {
    await confirmByStaff(call.app, staffActor(call.auth), call.params.reservationId);
    return answer(call, call.params.reservationId);
  },

  async cancelReservation(call) {
    await cancelByStaff(call.app, staffActor(call.auth), call.params.reservationId, call.body?.reason ?? null);
    return answer(call, call.params.reservationId);
  },

  async markReservationNoShow(call) {
    await markNoShowByStaff(call.app, staffActor(call.auth), call.params.reservationId);
    return answer(call, call.params.reservationId);
  },

  async batchUpdateReservationStatuses(call) {
    return json(200, await batchUpdateStatuses(call.app, staffActor(call.auth), call.body));
  },
} satisfies Partial<OperationHandlers>;
