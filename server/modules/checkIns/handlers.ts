import type { Call, OperationHandlers } from '../../platform/http/handler.ts';
import { json } from '../../platform/http/handler.ts';
import { Problem, ValidationFailed } from '../../platform/http/problem.ts';
import { redeemCheckIn } from './commands/redeemCheckIn.ts';
import { presentCheckIn, presentDoorReservation } from './presenters.ts';
import { NoSuchReservation, refusal, type Target } from './door.ts';
import { doorReservation, history, isInside, resolveTarget } from './queries.ts';

/** When `GET /api/check-ins/by-token/{token}` was deprecated (RFC 9745 `Deprecation: @<unix seconds>`). */
export const BY_TOKEN_DEPRECATED_AT = new Date(Date.UTC(2026, 10, 27));
export const BY_TOKEN_HEADERS = {
  Deprecation: `@${BY_TOKEN_DEPRECATED_AT.getTime() / 1000}`,
  Link: '</api/check-ins/lookup>; rel="successor-version"',
};

const NO_STORE = { 'Cache-Control': 'no-store' };

/** The door's view of the reservation `target` names (404 when none): the same for both lookup routes. */
async function lookup(call: Call, target: Target, showEventId: string | undefined) {
  const knex = call.app.db.knex;
  const id = await resolveTarget(knex, target);
  const row = id ? await doorReservation(knex, id) : undefined;
  if (!row) throw NoSuchReservation();
  const now = new Date();
  const { defaultLocale, venueTimezone } = call.app.config;
  const inside = await isInside(knex, row);
  const at = { inside, showEventId, now, zone: venueTimezone };
  const verdict = (type: 'ENTRY' | 'EXIT') => {
    const reason = refusal(row, type, at);
    return { ok: reason === null, reason };
  };
  return {
    reservation: presentDoorReservation(row, { defaultLocale, venueTimezone, now }),
    inside,
    entry: verdict('ENTRY'),
    exit: verdict('EXIT'),
    history: (await history(knex, row.id)).map(presentCheckIn),
  };
}

export const handlers = {
  async getCheckIn(call) {
    const { id } = call.params;
    const { token, showEventId } = call.query;
    if (id === 'lookup' && token === undefined) throw ValidationFailed([{ path: 'query/token', message: 'is required with lookup', code: 'required' }]);
    if (id !== 'lookup' && token !== undefined) throw ValidationFailed([{ path: 'query/token', message: 'is taken with lookup only, not with a reservation id', code: 'not_allowed' }]);
    const target: Target = id === 'lookup' ? { token: token! } : { id: id.toLowerCase() };
    return json(200, await lookup(call, target, showEventId), NO_STORE);
  },

  async getCheckInByToken(call) {
    try {
      return json(200, await lookup(call, { token: call.params.token }, call.query.showEventId), { ...BY_TOKEN_HEADERS, ...NO_STORE });
    } catch (err) {
      // Its refusals name the successor too (a 401/403 is answered before this handler runs).
      if (err instanceof Problem) throw new Problem(err.status, err.code, err.title, { detail: err.detail, errors: err.errors, headers: { ...err.headers, ...BY_TOKEN_HEADERS } });
      throw err;
    }
  },

  async redeemCheckIn(call) {
    const { reservationId, token, type, nonce, showEventId } = call.body;
    if ((reservationId === undefined) === (token === undefined)) {
      const message = reservationId === undefined ? 'one of reservationId and token is required' : 'send reservationId or token, not both';
      throw ValidationFailed([
        { path: 'body/reservationId', message, code: 'oneOf' },
        { path: 'body/token', message, code: 'oneOf' },
      ]);
    }
    const target: Target = reservationId !== undefined ? { id: reservationId.toLowerCase() } : { token: token! };
    const outcome = await redeemCheckIn(call.app, { target, type, nonce, showEventId }, call.auth);
    const { defaultLocale, venueTimezone } = call.app.config;
    const body = {
      checkIn: presentCheckIn(outcome.checkIn),
      reservation: outcome.reservation ? presentDoorReservation(outcome.reservation, { defaultLocale, venueTimezone, now: new Date() }) : null,
    };
    return json(200, body, { ...NO_STORE, ...(outcome.replayed ? { 'Idempotent-Replayed': 'true' } : {}) });
  },
} satisfies Partial<OperationHandlers>;
